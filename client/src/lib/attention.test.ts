import { afterEach, describe, expect, it, vi } from 'vitest';
import { attended, onNextInput, UNATTENDED_MS } from './attention.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('whether someone is at the page', () => {
  it('counts input from the first moment, before the page first asks', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + UNATTENDED_MS + 60_000);
    // Typing long after the page loaded, before anything asked whether someone is there.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    expect(attended()).toBe(true);
    vi.setSystemTime(Date.now() + UNATTENDED_MS + 1);
    expect(attended()).toBe(false);
  });

  it('runs a waiting call once, at the next input, unless cancelled', () => {
    const caughtUp = vi.fn();
    const cancelled = vi.fn();
    onNextInput(caughtUp);
    const cancel = onNextInput(cancelled);
    cancel();
    window.dispatchEvent(new Event('pointerdown'));
    window.dispatchEvent(new Event('pointerdown'));
    expect(caughtUp).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
