import Parse from 'parse/node';
import { describe, expect, it, vi } from 'vitest';
import { WinstonLoggerAdapter } from './parse-internals/internals.ts';
import { isRefusedRequest, RefusalsAsInfoLogger } from './parse-logger.ts';

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

describe('the level Parse log lines are written at', () => {
  it("writes a LiveQuery socket's malformed messages at info (below the site's level), not error", () => {
    const written = vi.spyOn(WinstonLoggerAdapter.prototype, 'log').mockReturnValue(undefined);
    try {
      const logger = new RefusalsAsInfoLogger();
      const junk = 'x'.repeat(65_000);
      logger.log('error', 'unable to parse request', junk, new SyntaxError('Unexpected token'));
      logger.log('error', 'Connect message error %s', 'data.op should be string');
      logger.log('error', 'Get unknown operation', junk);
      // A socket closed before it said connect (the connect deadline's doing, say).
      logger.log('error', 'Can not find client undefined on disconnect');
      expect(written.mock.calls.map((call) => call[0])).toEqual(['info', 'info', 'info', 'info']);
      // A fault of the server stays an error.
      logger.log('error', 'Uncaught internal server error.', new Error('boom'));
      expect(written.mock.calls.at(-1)![0]).toBe('error');
    } finally {
      written.mockRestore();
    }
  });
});
