// Administrator accounts: invite by e-mail, accept with the
// mailed code, list, remove rights, change one's own password. Every change is
// in the activity log.
//
// An invitation is its code (with the invitee's name) and nothing else: the account is
// made when the invitee accepts, so an invitation that expires or is withdrawn leaves
// no account holding the address against a registration. Invite, accept and withdraw of
// one address run one after the other (serialisedForAccount on inviteLock(email)).

import { ADMIN_INVITE_TTL_SECONDS, adminInviteEmail, adminNameProblem } from '@tc/domain/admin-tools';
import { LIST_MAX_LIMIT } from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage } from '@tc/domain/messages';
import { ServerMessage } from '@tc/domain/server-messages';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { Route } from '@tc/domain/routes';
import {
  isValidEmail,
  normalizeEmail,
  normalizeFullname,
  normalizePassword,
  passwordProblem,
} from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { defineFunction, fail, optionalString, requireStrings, validationFailed } from '../errors.ts';
import {
  codeParam,
  issueCode,
  verifyCode,
  voidWaitingCode,
  waitingCode,
  waitingCodes,
  withCode,
  withdrawCode,
} from '../otp/codes.ts';
import { MASTER, parse } from '../parse.ts';
import { ACTIVITY_CLASS, recordActivity } from '../activity/log.ts';
import { revokeAllSessions } from '../students/status.ts';
import { serialisedForAccount } from '../users/account-lock.ts';
import {
  ADMIN_ROLE,
  findUserByEmail,
  isAdmin,
  isStudent,
  ownerOnlyAcl,
  requireAdmin,
  type User,
} from '../users/accounts.ts';
import { changeOwnPassword } from '../users/password-change.ts';
import { mailFailureReason } from '../mail-failure.ts';

async function adminRole() {
  const Parse = parse();
  const role = await new Parse.Query(Parse.Role).equalTo('name', ADMIN_ROLE).first(MASTER);
  if (!role) fail(ErrorCode.Internal, ServerMessage.internal);
  return role;
}

/** Invitations go through the durable mail queue: a mail server that is down delays them, never loses them. */
async function mail(deps: CloudDeps, message: Parameters<CloudDeps['sendMail']>[0], key: string): Promise<void> {
  await deps.enqueueMail(message, key);
}

/** The lock of an address's invitation: its invitation, acceptance and withdrawal one at a time. */
const inviteLock = (email: string) => `admin-invite:${email}`;

/**
 * Whether `account` was made by an admin invitation and never became an administrator: an
 * admin.invite entry names its address from before the account existed (earlier versions
 * made the account when inviting, right after that entry), no removal names it (whatever its
 * state), and no acceptance that took effect or may have (applied, or pending after a crash).
 * Never a student's, an administrator's or the configured administrator's account.
 */
async function madeByInvitationOnly(deps: CloudDeps, account: User, email: string): Promise<boolean> {
  const Parse = parse();
  if (email === normalizeEmail(deps.adminEmail) || isStudent(account) || (await isAdmin(account))) return false;
  const entries = (kind: string, targetId: string) =>
    new Parse.Query(ACTIVITY_CLASS).equalTo('kind', kind).equalTo('targetId', targetId);
  if (await entries('admin.remove', account.id!).first(MASTER)) return false;
  if (await entries('admin.accept', account.id!).notEqualTo('state', 'failed').first(MASTER)) return false;
  return Boolean(await entries('admin.invite', email).lessThanOrEqualTo('createdAt', account.createdAt!).first(MASTER));
}

/**
 * The code's refusals as an invitee reads them: a parent asks for a new code on the form, an
 * invitee asks the administrator who invited them (3040, 3041 and 3042 keep their codes).
 */
async function inInvitationWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Also a code whose record is gone (an hour after it expired, or withdrawn): "try again" would not help.
    if (code === ErrorCode.WrongCode) fail(ErrorCode.WrongCode, AdminToolsMessage.invitationCodeWrong);
    if (code === ErrorCode.ExpiredCode) fail(ErrorCode.ExpiredCode, AdminToolsMessage.invitationExpired);
    if (code === ErrorCode.TooManyTries) fail(ErrorCode.TooManyTries, AdminToolsMessage.invitationBlocked);
    throw error;
  }
}

export function defineAdminAccountFunctions(deps: CloudDeps): void {
  const Parse = parse();

  defineFunction(deps, 'listAdmins', async (request) => {
    const me = await requireAdmin(request, deps);
    const role = await adminRole();
    const users = await role.getUsers().query().ascending('username').limit(LIST_MAX_LIMIT).find(MASTER);
    const account = (user: User) => ({
      objectId: user.id!,
      name: String(user.get('fullname') || deps.adminName),
      email: String(user.get('email') ?? user.getUsername()),
      self: user.id === me.id,
    });
    // Invitations not yet accepted follow, so that one sent by mistake can be withdrawn. Each is
    // named by its code's id; an address that has become a student's or an admin's meanwhile
    // can no longer be accepted, and waits for its code to expire unlisted.
    const waiting = await waitingCodes('admin-invite');
    const holders = waiting.length
      ? await new Parse.Query(Parse.User)
          .containedIn(
            'username',
            waiting.map((code) => code.target),
          )
          .limit(LIST_MAX_LIMIT)
          .find(MASTER)
      : [];
    const holderOf = new Map(holders.map((user: User) => [user.getUsername()!, user]));
    const members = new Set(users.map((user: User) => user.id));
    const invitations = waiting.flatMap((code) => {
      const holder = holderOf.get(code.target);
      if (holder && (members.has(holder.id) || isStudent(holder))) return [];
      return [
        {
          objectId: code.id,
          // An invitation of an earlier version carries no name: its account has it.
          name: code.inviteeName ?? String(holder?.get('fullname') || code.target),
          email: code.target,
          self: false,
          invitedUntil: code.expiresAt.toISOString(),
          ...(code.blocked ? { blocked: true } : {}),
        },
      ];
    });
    return [...users.map(account), ...invitations];
  });

  defineFunction(deps, 'inviteAdmin', async (request) => {
    const me = await requireAdmin(request, deps);
    requireStrings(request.params, ['email', 'name']);
    const email = normalizeEmail(optionalString(request.params, 'email') ?? '');
    const name = normalizeFullname(optionalString(request.params, 'name') ?? '');
    if (!isValidEmail(email)) validationFailed(RegistrationMessage.emailInvalid, 'email');
    const badName = adminNameProblem(name);
    if (badName) validationFailed(badName, 'name');

    return serialisedForAccount(deps, inviteLock(email), async () => {
      const existing = await findUserByEmail(email);
      if (existing && isStudent(existing)) validationFailed(AdminToolsMessage.studentEmail, 'email');
      if (existing && (await isAdmin(existing))) validationFailed(AdminToolsMessage.alreadyAdmin, 'email');

      // A new code replaces one sent before: the invitation is the newest, under its own id.
      const issued = await issueCode(deps, 'admin-invite', email, ADMIN_INVITE_TTL_SECONDS, { inviteeName: name });
      await recordActivity(
        {
          admin: me,
          kind: 'admin.invite',
          targetClass: '_User',
          targetId: existing?.id ?? email,
          changes: [
            { field: 'email', before: '', after: email },
            { field: 'name', before: '', after: name },
          ],
        },
        async () => {
          try {
            await mail(
              deps,
              {
                to: email,
                ...adminInviteEmail({ name, email }, issued.code, `${deps.publicUrl}${Route.adminAcceptInvite}`),
              },
              `admin-invite:${email}:${Date.now()}`,
            );
          } catch (error) {
            await withdrawCode(issued);
            console.error('Mail delivery failed:', mailFailureReason(error));
            fail(ErrorCode.DeliveryFailed, ServerMessage.deliveryFailed);
          }
        },
      );
      return { success: true };
    });
  });

  defineFunction(deps, 'acceptAdminInvite', async ({ params }) => {
    requireStrings(params, ['email', 'password']);
    const otp = codeParam(params);
    const email = normalizeEmail(optionalString(params, 'email') ?? '');
    if (!email) validationFailed(RegistrationMessage.emailRequired, 'email');
    const password = normalizePassword(optionalString(params, 'password') ?? '');
    const problem = passwordProblem(password);
    if (problem) validationFailed(problem, 'password');

    // Only a right code waits for the address's lock (a wrong one is answered and counted here),
    // and withCode checks it again under the lock. The code is used up only once the account
    // is an administrator: a failure on the way leaves it good for another try.
    await inInvitationWords(async () => {
      await verifyCode(deps, 'admin-invite', email, otp);
      await serialisedForAccount(deps, inviteLock(email), () =>
        withCode(deps, 'admin-invite', email, otp, async ({ inviteeName }) => {
          let user = await findUserByEmail(email);
          // A parent registered the address while the invitation waited: a student is never an admin.
          if (user && isStudent(user)) fail(ErrorCode.EmailTaken, AdminToolsMessage.studentEmail);
          // The address became an administrator's meanwhile (ADMIN_EMAIL): their password stays.
          if (user && (await isAdmin(user))) fail(ErrorCode.EmailTaken, AdminToolsMessage.acceptedAlready);
          const made = !user;
          if (!user) {
            user = new Parse.User();
            // An invitation of an earlier version carries no name: the address stands for it.
            user.set({ username: email, email, fullname: inviteeName ?? email, password });
            user.setACL(new Parse.ACL());
            try {
              await user.save(null, MASTER);
            } catch (error) {
              // A registration of the address at this very moment took it.
              const taken: unknown[] = [Parse.Error.USERNAME_TAKEN, Parse.Error.EMAIL_TAKEN];
              if (taken.includes((error as { code?: unknown }).code) || (await findUserByEmail(email))) {
                fail(ErrorCode.EmailTaken, AdminToolsMessage.studentEmail);
              }
              throw error;
            }
          }
          const invitee = user;
          try {
            await recordActivity(
              {
                admin: invitee,
                kind: 'admin.accept',
                targetClass: '_User',
                targetId: invitee.id!,
                changes: [{ field: 'role', before: '', after: ADMIN_ROLE }],
              },
              async () => {
                // An account an earlier invitation made, or a former administrator's: the new
                // password and name.
                if (!made) {
                  invitee.setPassword(password);
                  if (inviteeName) invitee.set('fullname', inviteeName);
                }
                invitee.setACL(ownerOnlyAcl(invitee));
                await invitee.save(null, MASTER);
                const role = await adminRole();
                role.getUsers().add(invitee);
                await role.save(null, MASTER);
              },
            );
          } catch (error) {
            // The account this try made goes with it, unless it became an administrator before
            // the failure: an invitation that is never accepted leaves no account. (The code
            // stays good for another try.)
            if (made && !(await isAdmin(invitee).catch(() => true))) {
              await invitee.destroy(MASTER).catch(() => undefined);
            }
            throw error;
          }
        }),
      );
    });
    return { success: true };
  });

  defineFunction(deps, 'removeAdmin', async (request) => {
    const me = await requireAdmin(request, deps);
    const objectId = optionalString(request.params, 'objectId');
    if (!objectId) fail(ErrorCode.BadRequest, ServerMessage.mustBeString('objectId'));
    if (objectId === me.id) fail(ErrorCode.Forbidden, AdminToolsMessage.cannotRemoveSelf);
    // One removal of this account at a time: a second sent at once finds it no admin.
    return serialisedForAccount(deps, objectId, async () => {
      const role = await adminRole();
      const members = () => role.getUsers().query();
      const target = await members().equalTo('objectId', objectId).first(MASTER);
      if (!target) fail(ErrorCode.NotFound, AdminToolsMessage.notAnAdmin);
      if ((await members().count(MASTER)) <= 1) fail(ErrorCode.Forbidden, AdminToolsMessage.cannotRemoveLast);

      await recordActivity(
        {
          admin: me,
          kind: 'admin.remove',
          targetClass: '_User',
          targetId: target.id!,
          changes: [{ field: 'role', before: ADMIN_ROLE, after: '' }],
        },
        async () => {
          role.getUsers().remove(target);
          await role.save(null, MASTER);
          // Two admins removing each other at once: whoever finds none left puts theirs back.
          if ((await members().count(MASTER)) === 0) {
            role.getUsers().add(target);
            await role.save(null, MASTER);
            fail(ErrorCode.Forbidden, AdminToolsMessage.cannotRemoveLast);
          }
          await revokeAllSessions(target);
        },
      );
      return { success: true };
    });
  });

  // An invitation not yet accepted: its code stops working. A call of its own, not
  // removeAdmin's: a list read before the invitee accepted must not take a Withdraw for the
  // removal of an administrator. The id is the invitation's as the Admins page showed it: one
  // replaced by a newer invitation of the address meanwhile is not withdrawn (404).
  defineFunction(deps, 'withdrawAdminInvitation', async (request) => {
    const me = await requireAdmin(request, deps);
    const objectId = optionalString(request.params, 'objectId');
    const invitation = objectId ? await waitingCode('admin-invite', objectId) : undefined;
    if (!invitation) fail(ErrorCode.NotFound, AdminToolsMessage.invitationNotFound);
    const email = invitation.target;
    return serialisedForAccount(deps, inviteLock(email), async () => {
      // An account an invitation made goes too: left, it would hold the address (a parent's,
      // mistyped) against a registration. A student who registered the address meanwhile is not
      // the invitation's: the entry names the address, as the invitation's did, and stays out of
      // their History.
      const account = await findUserByEmail(email);
      const made = account && (await madeByInvitationOnly(deps, account, email)) ? account : undefined;
      await recordActivity(
        {
          admin: me,
          kind: 'admin.withdraw',
          targetClass: '_User',
          targetId: account && !isStudent(account) ? account.id! : email,
          changes: [{ field: 'email', before: email, after: '' }],
        },
        async () => {
          // Accepted, withdrawn or replaced meanwhile: nothing was withdrawn, and the log says so.
          if (!(await voidWaitingCode('admin-invite', objectId!))) {
            fail(ErrorCode.NotFound, AdminToolsMessage.invitationNotFound);
          }
          if (made) await made.destroy(MASTER);
        },
      );
      return { success: true };
    });
  });

  defineFunction(deps, 'changeAdminPassword', async (request) => {
    const me = await requireAdmin(request, deps);
    const token = await changeOwnPassword(deps, request, me, 'admin', (change) =>
      recordActivity(
        {
          admin: me,
          kind: 'admin.password',
          targetClass: '_User',
          targetId: me.id!,
          changes: [{ field: 'password', before: '', after: 'changed' }],
        },
        change,
      ),
    );
    return { success: true, token };
  });
}
