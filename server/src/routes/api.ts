// The REST facade /api (product.md §5). Thin: read the request, run the cloud
// function, shape the answer. Every rule lives in the cloud code.

import express, { type Request, type Response, type Router } from 'express';
import { AppError, ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/messages';
import type { StudentRecord } from '@tc/domain/student';
import { parse } from '@tc/cloud/parse';

type Params = Record<string, unknown>;

function bodyOf(req: Request): Params {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(ErrorCode.BadRequest, ServerMessage.badRequest);
  }
  return body as Params;
}

function bearer(req: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  if (!match) throw new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  return match[1]!;
}

/**
 * Runs a cloud function; Parse errors come back as AppErrors with their codes.
 * The call runs in this process, where Parse sees no client address: the
 * context carries the one Express saw (cloud/src/users/accounts.ts clientAddress).
 */
async function run<T>(name: string, params: Params, sessionToken?: string, clientIp?: string): Promise<T> {
  const Parse = parse();
  const options = { ...(sessionToken ? { sessionToken } : {}), ...(clientIp ? { context: { clientIp } } : {}) };
  try {
    return (await Parse.Cloud.run(name, params, options)) as T;
  } catch (error) {
    if (error instanceof Parse.Error) {
      if (error.code === Parse.Error.INVALID_SESSION_TOKEN) {
        throw new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
      }
      if (error.code === ErrorCode.Internal || error.code === Parse.Error.INTERNAL_SERVER_ERROR) {
        throw new AppError(ErrorCode.Internal, ServerMessage.internal);
      }
      throw new AppError(error.code as ErrorCode, error.message);
    }
    throw error;
  }
}

/** Answers a failure in the shape a call documents, e.g. `{success:false, error}`. */
async function withFailure(res: Response, status: number | null, extra: Params, action: () => Promise<void>) {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof AppError) || error.code === ErrorCode.Internal) throw error;
    const code = error.code;
    const httpStatus = code === ErrorCode.TooManyRequests ? 429 : (status ?? httpStatusOf(code));
    res.status(httpStatus).json({ ...extra, error: error.message, code });
  }
}

export function apiRouter(isDatabaseHealthy: () => Promise<boolean>): Router {
  const api = express.Router();

  api.get('/health', async (_req, res) => {
    if (await isDatabaseHealthy()) res.json({ status: 'ok' });
    else res.status(503).json({ status: 'unavailable', error: ServerMessage.databaseUnavailable });
  });

  api.post('/check-email', async (req, res) => {
    res.json(await run('checkEmail', { email: bodyOf(req).email }));
  });

  api.post('/check-mobile', async (req, res) => {
    res.json(await run('checkMobile', { mobile: bodyOf(req).mobile }));
  });

  api.post('/send-sms', async (req, res) => {
    res.json(await run('sendRegistrationCode', { mobile: bodyOf(req).mobile }));
  });

  api.post('/register', async (req, res) => {
    res.status(201).json(await run('registerStudent', bodyOf(req)));
  });

  api.post('/send-email', async (req, res) => {
    const { email, fullname } = bodyOf(req);
    res.json(await run('sendWelcomeEmail', { email, fullname }));
  });

  api.post('/student/login', async (req, res) => {
    const { identifier, password, altcha } = bodyOf(req);
    await withFailure(res, 401, {}, async () => {
      res.json(await run('loginStudent', { identifier, password, altcha }, undefined, req.ip));
    });
  });

  api.get('/students/me', async (req, res) => {
    res.json(await run('getMyProfile', {}, bearer(req)));
  });

  api.post('/student/logout', async (req, res) => {
    res.json(await run('logoutStudent', {}, bearer(req)));
  });

  api.post('/send-email-otp', async (req, res) => {
    res.json(await run('sendResetCode', { email: bodyOf(req).email }));
  });

  api.put('/users/update-password', async (req, res) => {
    const { email, otp, newPassword } = bodyOf(req);
    await withFailure(res, 400, { success: false }, async () => {
      res.json(await run('resetPassword', { email, otp, newPassword }, undefined, req.ip));
    });
  });

  api.post('/admin/login', async (req, res) => {
    const { email, password, altcha } = bodyOf(req);
    await withFailure(res, 401, { success: false }, async () => {
      res.json(await run('loginAdmin', { email, password, altcha }, undefined, req.ip));
    });
  });

  api.get('/admin/me', async (req, res) => {
    res.json(await run('getAdminProfile', {}, bearer(req)));
  });

  api.post('/admin/logout', async (req, res) => {
    res.json(await run('logoutAdmin', {}, bearer(req)));
  });

  api.get('/users', async (req, res) => {
    const token = bearer(req);
    const { skip, limit, q, sort, grade, board } = req.query;
    const { students, total } = await run<{ students: StudentRecord[]; total: number }>(
      'listStudents',
      { skip, limit, q, sort, grade, board },
      token,
    );
    res.set('X-Total-Count', String(total)).json(students);
  });

  api.put('/users/:objectId', async (req, res) => {
    const token = bearer(req);
    res.json(await run('updateStudent', { ...bodyOf(req), objectId: req.params.objectId }, token));
  });

  // Hardening (product.md §10): the proof-of-work challenge a login under a
  // spray asks for, and "log out of all devices".
  api.get('/login-challenge', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await run('getLoginChallenge', {}));
  });

  api.post('/student/logout-all', async (req, res) => {
    res.json(await run('logoutAllDevices', {}, bearer(req)));
  });

  api.use((_req, res) => {
    res.status(404).json({ error: ServerMessage.notFound, code: ErrorCode.NotFound });
  });

  return api;
}
