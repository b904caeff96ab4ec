// How the server runs a cloud function for its own HTTP routes (the /api facade,
// the CSV export's admin check): in this process, straight to the function that
// defineFunction made, with the account of the session as Parse would give it.
// Parse's function router and the SDK's encoding in between cost about an eighth
// of a short read's CPU (docs/decisions/0014-direct-cloud-calls.md). Every rule
// (the rate limit, the session and role checks, the error mapping) is inside the
// function and runs either way.

import { AppError, ErrorCode, fieldOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { cloudFunction, isDatabaseRefusal } from '@tc/cloud/errors';
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
  const Parse = parse();
  try {
    const user = sessionToken ? ((await userOfSession(Parse.applicationId!, sessionToken)) as User) : undefined;
    return await cloudFunction(name)({ params, ...(user ? { user } : {}), master: false, context: { clientIp } });
  } catch (error) {
    if (error instanceof Parse.Error) {
      if (error.code === Parse.Error.INVALID_SESSION_TOKEN) {
        throw new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
      }
      if (
        isDatabaseRefusal(error) ||
        error.code === ErrorCode.Internal ||
        error.code === Parse.Error.INTERNAL_SERVER_ERROR
      ) {
        throw new AppError(ErrorCode.Internal, ServerMessage.internal);
      }
      throw new AppError(error.code as ErrorCode, error.message, fieldOf(error));
    }
    throw error;
  }
}
