import { describe, expect, it } from 'vitest';
import { loginSlots } from './login-slots.ts';

describe('login slots of one process', () => {
  it('lets `limit` tries of a key in at once, hands a freed slot to the first one waiting, and keeps keys apart', async () => {
    const slots = loginSlots(2, 60_000);
    expect(await slots.take('a', 1000)).toBe(true);
    expect(await slots.take('a', 1000)).toBe(true);
    expect(await slots.take('b', 1000)).toBe(true);
    let third = false;
    const waiting = slots.take('a', 5000).then((got) => (third = got));
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    slots.give('a');
    expect(await waiting).toBe(true);
  });

  it('refuses a try no slot came free for in time', async () => {
    const slots = loginSlots(1, 60_000);
    expect(await slots.take('a', 1000)).toBe(true);
    expect(await slots.take('a', 30)).toBe(false);
    slots.give('a');
    expect(await slots.take('a', 30)).toBe(true);
  });

  it('frees a slot its holder never gave back', async () => {
    const slots = loginSlots(1, 50);
    expect(await slots.take('a', 1000)).toBe(true);
    expect(await slots.take('a', 1000)).toBe(true);
  });
});
