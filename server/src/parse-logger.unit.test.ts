import Parse from 'parse/node';
import { describe, expect, it } from 'vitest';
import { isRefusedRequest } from './parse-logger.ts';

describe('which Parse log lines are refused requests', () => {
  it('counts a Parse error answered to the client', () => {
    expect(isRefusedRequest(new Parse.Error(Parse.Error.OPERATION_FORBIDDEN, 'Permission denied'))).toBe(true);
    expect(isRefusedRequest(new Parse.Error(Parse.Error.INVALID_SESSION_TOKEN, 'Invalid session token'))).toBe(true);
  });

  it("keeps Parse's internal errors, system errors and plain messages as they are", () => {
    expect(isRefusedRequest(new Parse.Error(Parse.Error.INTERNAL_SERVER_ERROR, 'boom'))).toBe(false);
    expect(isRefusedRequest(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRefusedRequest(new Error('plain'))).toBe(false);
    expect(isRefusedRequest('Permission denied for action find on class _User.')).toBe(false);
  });
});
