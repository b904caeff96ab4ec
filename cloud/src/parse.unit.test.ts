import Parse from 'parse/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { setParse, unlessMissing } from './parse.ts';

describe('unlessMissing', () => {
  beforeAll(() => setParse(Parse));

  it('gives what the lookup finds', async () => {
    expect(await unlessMissing(Promise.resolve('found'))).toBe('found');
  });

  it('gives undefined for an object that does not exist', async () => {
    const missing = Promise.reject(new Parse.Error(Parse.Error.OBJECT_NOT_FOUND, 'Object not found.'));
    expect(await unlessMissing(missing)).toBeUndefined();
  });

  it('lets any other failure through (the database down is a 503, not a 404)', async () => {
    const down = new Parse.Error(Parse.Error.INTERNAL_SERVER_ERROR, 'connect ECONNREFUSED');
    await expect(unlessMissing(Promise.reject(down))).rejects.toBe(down);
    const bug = new TypeError('x is undefined');
    await expect(unlessMissing(Promise.reject(bug))).rejects.toBe(bug);
  });
});
