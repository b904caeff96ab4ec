// Server-side one-time codes: the server makes every code, keeps
// only a keyed hash, binds it to a purpose and a target, and checks it.

import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  LIST_MAX_LIMIT,
  OTP_MAX,
  OTP_MAX_WRONG_TRIES,
  OTP_MAX_PER_TARGET_PER_HOUR,
  OTP_MIN,
  OTP_RESEND_COOLDOWN_SECONDS,
  OTP_TTL_SECONDS,
  type OtpPurpose,
} from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import type { CloudDeps } from '../deps.ts';
import { fail, optionalString, tooManyRequests, type Params } from '../errors.ts';
import { MASTER, parse } from '../parse.ts';

export const CODE_CLASS = 'OneTimeCode';
const HOUR_MS = 3_600_000;

function hashCode(deps: CloudDeps, purpose: OtpPurpose, target: string, code: string): string {
  return createHmac('sha256', deps.codeSecret).update(`${purpose}\n${target}\n${code}`).digest('hex');
}

function activeCodeQuery(purpose: OtpPurpose, target: string) {
  const Parse = parse();
  return new Parse.Query(CODE_CLASS).equalTo('purpose', purpose).equalTo('target', target).equalTo('active', true);
}

/** A code just made: the digits for delivery only, and the record's id to withdraw exactly it. */
export interface IssuedCode {
  code: string;
  id: string;
}

/**
 * Makes a new code for the target, replacing any earlier one. Refuses (429) within
 * the resend cooldown and past the hourly cap.
 */
export async function issueCode(
  deps: CloudDeps,
  purpose: OtpPurpose,
  target: string,
  ttlSeconds = OTP_TTL_SECONDS,
  /** What the code carries for its use (an invitation: the invitee's name, set on the account made at acceptance). */
  carried: { inviteeName?: string } = {},
): Promise<IssuedCode> {
  const Parse = parse();
  await purgeOldCodes(deps);
  const now = Date.now();
  const recent = await new Parse.Query(CODE_CLASS)
    .equalTo('purpose', purpose)
    .equalTo('target', target)
    .greaterThan('createdAt', new Date(now - HOUR_MS))
    .descending('createdAt')
    .limit(OTP_MAX_PER_TARGET_PER_HOUR + 1)
    .find(MASTER);

  // A code the gateway refused does not hold the next one back; it counts for the cap all the
  // same (a gateway that times out may have sent it).
  const latest = recent.find((code) => !code.get('undelivered'));
  if (latest) {
    const waited = (now - latest.createdAt!.getTime()) / 1000;
    if (waited < OTP_RESEND_COOLDOWN_SECONDS) {
      const seconds = Math.ceil(OTP_RESEND_COOLDOWN_SECONDS - waited);
      tooManyRequests(ServerMessage.cooldown(seconds), seconds);
    }
  }
  if (recent.length >= OTP_MAX_PER_TARGET_PER_HOUR) {
    // A code is free again once the oldest of the hour's last codes is an hour old.
    const oldest = recent[OTP_MAX_PER_TARGET_PER_HOUR - 1]!.createdAt!.getTime();
    tooManyRequests(
      ServerMessage.hourlyCap(purpose === 'register' ? 'mobile' : 'email'),
      (oldest + HOUR_MS - now) / 1000,
    );
  }

  const code = String(randomInt(OTP_MIN, OTP_MAX + 1));
  const record = new Parse.Object(CODE_CLASS);
  record.set({
    purpose,
    target,
    codeHash: hashCode(deps, purpose, target, code),
    expiresAt: new Date(now + ttlSeconds * 1000),
    tries: 0,
    uses: 0,
    active: true,
    ...carried,
  });
  record.setACL(new Parse.ACL());
  // A new code replaces the old one. The partial unique index allows one active code per
  // target, and it decides between concurrent requests: the code goes in first, and only
  // when an active one is there already is that one looked at. Made within the cooldown
  // (a concurrent request, a double tap), it stands and this request gets the 429; older,
  // it is withdrawn and the new code goes in. (Withdrawing first would let two requests
  // that both passed the check above each replace the other's code and send two.)
  for (let attempt = 0; ; attempt++) {
    try {
      await record.save(null, MASTER);
      break;
    } catch (error) {
      if (!(error instanceof Parse.Error && error.code === Parse.Error.DUPLICATE_VALUE)) throw error;
      const active = await activeCodeQuery(purpose, target).first(MASTER);
      const age = active ? (Date.now() - active.createdAt!.getTime()) / 1000 : Infinity;
      if (attempt > 0 || age < OTP_RESEND_COOLDOWN_SECONDS) {
        tooManyRequests(ServerMessage.cooldown(OTP_RESEND_COOLDOWN_SECONDS), OTP_RESEND_COOLDOWN_SECONDS);
      }
      if (active) {
        active.set('active', false);
        await active.save(null, MASTER);
      }
    }
  }
  return { code, id: record.id! };
}

/**
 * The code a request carries (`otp`): text, or a whole number as a client that keeps codes as
 * numbers sends it (123456); anything else is a 400. A code is never below 100000, so no
 * leading zero is lost.
 */
export function codeParam(params: Params): string | undefined {
  const value = params.otp;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return optionalString(params, 'otp');
}

/** Whether a code with this many wrong tries takes no more: five are allowed. */
const blockedAfter = (wrongTries: number) => wrongTries >= OTP_MAX_WRONG_TRIES;

type CodeRecord = Awaited<ReturnType<ReturnType<typeof activeCodeQuery>['first']>> & object;

/**
 * Checks a typed code in one atomic write: a wrong try is counted (parallel guesses
 * cannot exceed the limit), a right one reads the count of wrong tries made before
 * it (an increment by 0), so that right tries sent at once (a double tap, a retry)
 * never use up the tries. With `use`, a right code is used up in that same write:
 * only the first of parallel right tries gets uses === 1. Throws 3041 when expired,
 * 3042 after five wrong tries, 3040 when wrong, missing or already used.
 */
async function checkCode(
  deps: CloudDeps,
  purpose: OtpPurpose,
  target: string,
  typed: unknown,
  use: boolean,
): Promise<CodeRecord> {
  const record = await activeCodeQuery(purpose, target).descending('createdAt').first(MASTER);
  if (!record) fail(ErrorCode.WrongCode, ServerMessage.wrongCode);
  if ((record.get('expiresAt') as Date).getTime() <= Date.now()) fail(ErrorCode.ExpiredCode, ServerMessage.expiredCode);

  const expected = Buffer.from(record.get('codeHash') as string, 'hex');
  const actual = Buffer.from(hashCode(deps, purpose, target, typeof typed === 'string' ? typed.trim() : ''), 'hex');
  const right = timingSafeEqual(expected, actual);

  record.increment('tries', right ? 0 : 1);
  if (right && use) {
    record.increment('uses');
    record.set('active', false);
  }
  await record.save(null, MASTER);
  // Five wrong tries are allowed; the sixth try, right or wrong, finds the code dead (a wrong
  // one counted itself first).
  const wrongTries = record.get('tries') as number;
  if (blockedAfter(right ? wrongTries : wrongTries - 1)) fail(ErrorCode.TooManyTries, ServerMessage.tooManyTries);
  if (!right || (use && record.get('uses') !== 1)) fail(ErrorCode.WrongCode, ServerMessage.wrongCode);
  return record;
}

/**
 * Checks a typed code and leaves it as it is (a right try counts nothing): the check a
 * call makes before it waits for a lock, so that only a right code ever waits (withCode
 * then checks it again under the lock).
 */
export async function verifyCode(deps: CloudDeps, purpose: OtpPurpose, target: string, typed: unknown): Promise<void> {
  await checkCode(deps, purpose, target, typed, false);
}

/** Checks a typed code and consumes it on success (see checkCode for the answers). */
export async function consumeCode(deps: CloudDeps, purpose: OtpPurpose, target: string, typed: unknown): Promise<void> {
  await checkCode(deps, purpose, target, typed, true);
}

/**
 * Checks a typed code, runs the action it allows, and only then uses the code up:
 * a failure of the action, or a crash during it, leaves the parent's code good; a
 * failure after it does not undo or deny it.
 * Callers make the action itself single (registration: the mobile, the code's
 * target, is unique), so that parallel right tries give one result.
 */
export async function withCode<T>(
  deps: CloudDeps,
  purpose: OtpPurpose,
  target: string,
  typed: unknown,
  action: (carried: { inviteeName?: string }) => Promise<T>,
): Promise<T> {
  const record = await checkCode(deps, purpose, target, typed, false);
  const inviteeName = record.get('inviteeName') as string | undefined;
  const result = await action(inviteeName ? { inviteeName } : {});
  record.increment('uses');
  record.set('active', false);
  // The action has been done (an account made, a password set): a failure to record the
  // code's use (the database away for a moment) must not answer that it failed, which would
  // send the parent back to a form that then says "already registered". The code stays good
  // until it expires, and each action refuses to be done twice (a unique mobile, an admin
  // already) or does no harm again (the same password set by its owner).
  await record.save(null, MASTER).catch((error: unknown) => {
    console.error('A used one-time code could not be marked used:', error instanceof Error ? error.message : error);
  });
  return result;
}

/**
 * Removes exactly the code a failed delivery carried, so that it can never be used;
 * a newer code of the same target (the parent asked again meanwhile) stays.
 */
export async function withdrawCode(issued: IssuedCode): Promise<void> {
  const Parse = parse();
  const record = await new Parse.Query(CODE_CLASS).get(issued.id, MASTER).catch(() => undefined);
  if (record) await record.destroy(MASTER);
}

/**
 * Takes a code out of use but keeps it counted for the cooldown and the hourly cap:
 * a reset code whose mail failed (withdrawn, it would let the next request through
 * where an unknown address's is refused, and tell that the address is known).
 * `undelivered`: a code whose SMS the gateway refused, counted for the cap only, so the
 * parent may ask again at once but a failing gateway (which may still deliver, after a
 * timeout) sends no more texts to one number than the cap.
 */
export async function voidCode(issued: IssuedCode, { undelivered = false } = {}): Promise<void> {
  const Parse = parse();
  const record = await new Parse.Query(CODE_CLASS).get(issued.id, MASTER).catch(() => undefined);
  if (!record) return;
  record.set({ active: false, expiresAt: new Date(), ...(undelivered ? { undelivered } : {}) });
  await record.save(null, MASTER);
}

/** A code still good (an invitation waiting): none of its digits, only what the Admins page shows. */
export interface WaitingCode {
  id: string;
  target: string;
  expiresAt: Date;
  /** Five wrong tries made: the code answers 3042 to every try until a new one is issued. */
  blocked: boolean;
  inviteeName?: string;
}

function waitingCodeQuery(purpose: OtpPurpose) {
  const Parse = parse();
  return new Parse.Query(CODE_CLASS)
    .equalTo('purpose', purpose)
    .equalTo('active', true)
    .greaterThan('expiresAt', new Date());
}

/** The record of the code of `purpose` with this id, when it is still good. */
function waitingRecord(purpose: OtpPurpose, id: string) {
  return waitingCodeQuery(purpose).equalTo('objectId', id).first(MASTER);
}

function asWaitingCode(record: CodeRecord): WaitingCode {
  const inviteeName = record.get('inviteeName') as string | undefined;
  return {
    id: record.id!,
    target: record.get('target') as string,
    expiresAt: record.get('expiresAt') as Date,
    blocked: blockedAfter(record.get('tries') as number),
    ...(inviteeName ? { inviteeName } : {}),
  };
}

/** The codes of `purpose` still good, one per target (pending invitations). */
export async function waitingCodes(purpose: OtpPurpose): Promise<WaitingCode[]> {
  const codes = await waitingCodeQuery(purpose).ascending('target').limit(LIST_MAX_LIMIT).find(MASTER);
  return codes.map(asWaitingCode);
}

/** The code of `purpose` with this id when it is still good (an invitation the Admins page showed). */
export async function waitingCode(purpose: OtpPurpose, id: string): Promise<WaitingCode | undefined> {
  const record = await waitingRecord(purpose, id);
  return record ? asWaitingCode(record) : undefined;
}

/**
 * Takes the code of this id out of use (a withdrawn invitation), counted as voidCode's
 * are. It is marked used in one atomic write: a consumeCode of it at the same moment then
 * finds it used by another (uses !== 1), and fails. (An invitation's acceptance, which uses
 * withCode, never runs beside it: both wait for the address's lock.) False when it was used,
 * withdrawn, replaced or expired meanwhile.
 */
export async function voidWaitingCode(purpose: OtpPurpose, id: string): Promise<boolean> {
  const record = await waitingRecord(purpose, id);
  if (!record) return false;
  record.increment('uses');
  record.set({ active: false, expiresAt: new Date() });
  await record.save(null, MASTER);
  return record.get('uses') === 1;
}

/** Every code of these targets, whatever its purpose (an erasure: codes are stored by e-mail or mobile). */
export async function dropCodesOf(targets: string[]): Promise<void> {
  const Parse = parse();
  await new Parse.Query(CODE_CLASS)
    .containedIn('target', targets)
    .eachBatch(async (codes) => void (await Parse.Object.destroyAll(codes, MASTER)), { ...MASTER, batchSize: 500 });
}

/**
 * Codes past their use and past the hour the cooldown and the cap look back on:
 * nothing needs them, and each names an address or a mobile. Deleted as new ones
 * are made, so the table holds about an hour of requests.
 */
async function purgeOldCodes(deps: CloudDeps): Promise<void> {
  const hourAgo = new Date(Date.now() - HOUR_MS);
  await deps.sql(`DELETE FROM "${CODE_CLASS}" WHERE "expiresAt" < $1 AND "createdAt" < $1`, [hourAgo]);
}
