import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/render-app.tsx';
import { logOut } from './log-out.ts';
import { studentSession } from './session.ts';

const MINUTE = 60_000;

/** The server's logout answers, one per call, the last one repeated. */
function serverAnswers(...statuses: number[]) {
  let served = 0;
  const { calls } = mockFetch({
    'POST /api/student/logout': () => {
      const status = statuses[Math.min(served++, statuses.length - 1)]!;
      return status === 200 ? { body: { success: true } } : { status };
    },
  });
  return () => calls.filter((c) => c.path === '/api/student/logout').length;
}

// Only the clock's timers are faked: the answers (promises) come as they would.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  studentSession.save('r:token');
});

describe('a logout the server did not answer', () => {
  it('is forgotten here at once, then asked again after 2 s, 10 s, 1 min and 5 min, and no more', async () => {
    const asked = serverAnswers(500);
    expect(await logOut('student')).toBe(true);
    expect(studentSession.token()).toBeNull();
    expect(asked()).toBe(1);
    for (const [pause, after] of [
      [2_000, 2],
      [10_000, 3],
      [MINUTE, 4],
      [5 * MINUTE, 5],
    ] as const) {
      await vi.advanceTimersByTimeAsync(pause - 1);
      expect(asked()).toBe(after - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(asked()).toBe(after);
    }
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(asked()).toBe(5);
  });

  it('is asked again when the browser is back online, and no more once the server has ended it', async () => {
    const asked = serverAnswers(500, 500, 200);
    await logOut('student');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked()).toBe(2);
    // Before the next pause (10 s) is over.
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toBe(3);
    // Ended: the pause that was running is dropped, and so is the listener.
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toBe(3);
  });

  it('is not asked again once the server answers that the session had ended already (401)', async () => {
    const asked = serverAnswers(500, 401);
    await logOut('student');
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(asked()).toBe(2);
  });
});
