import Parse from 'parse/node';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tc/domain/errors';

describe('error codes', () => {
  it('share their numbers with the Parse.Error constants they mirror', () => {
    expect(ErrorCode.NotFound).toBe(Parse.Error.OBJECT_NOT_FOUND);
    expect(ErrorCode.BadRequest).toBe(Parse.Error.INVALID_JSON);
    expect(ErrorCode.Forbidden).toBe(Parse.Error.OPERATION_FORBIDDEN);
    expect(ErrorCode.Validation).toBe(Parse.Error.VALIDATION_ERROR);
    expect(ErrorCode.InvalidSession).toBe(Parse.Error.INVALID_SESSION_TOKEN);
  });
});
