// How the server runs a cloud function for its own HTTP routes (the /api facade,
// the CSV export's admin check): in this process, straight to the function that
// defineFunction made, with the account of the session as Parse would give it.
// Parse's function router and the SDK's encoding in between cost about an eighth
// of a short read's CPU (docs/decisions/0014-direct-cloud-calls.md). Every rule
// (the rate limit, the session and role checks, the error mapping) is inside the
// function and runs either way.

import { AppError, ErrorCode, fieldOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { cloudFunction, isDatabaseRefusal, type FieldError } from '@tc/cloud/errors';
import { parse } from '@tc/cloud/parse';
import type { User } from '@tc/cloud/users/accounts';
import { userOfSession } from './parse-internals/internals.ts';

/**
 * Runs a cloud function for a client at `clientIp` (its rate limit counts that
 * address), as the holder of `sessionToken` when given. Parse errors come back as
 * AppErrors with their codes and fields; an unknown or expired session is a 209.
 */
export async function callCloudFunction(
  name: string,
  params: Record<string, unknown>,
  clientIp: string,
  sessionToken?: string,
): Promise<unknown> {
  const user = sessionToken ? await sessionUser(sessionToken) : undefined;
  return callCloudFunctionAs(name, params, clientIp, user);
}

/** The account of a session as Parse gives it; an unknown or expired session is a 209. */
export async function sessionUser(sessionToken: string): Promise<User> {
  try {
    return (await userOfSession(parse().applicationId!, sessionToken)) as User;
  } catch (error) {
    throw asAppError(error);
  }
}

/** callCloudFunction for an account already looked up (sessionUser), or none. */
export async function callCloudFunctionAs(
  name: string,
  params: Record<string, unknown>,
  clientIp: string,
  user?: User,
): Promise<unknown> {
  try {
    return await cloudFunction(name)({ params, ...(user ? { user } : {}), master: false, context: { clientIp } });
  } catch (error) {
    throw asAppError(error);
  }
}

/** A Parse error as the AppError the facade answers with; anything else as it is. */
function asAppError(error: unknown): unknown {
  const Parse = parse();
  if (!(error instanceof Parse.Error)) return error;
  if (error.code === Parse.Error.INVALID_SESSION_TOKEN) {
    return new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  }
  if (
    isDatabaseRefusal(error) ||
    error.code === ErrorCode.Internal ||
    error.code === Parse.Error.INTERNAL_SERVER_ERROR
  ) {
    return new AppError(ErrorCode.Internal, ServerMessage.internal);
  }
  return new AppError(error.code as ErrorCode, error.message, fieldOf(error), (error as FieldError).retryAfter);
}
