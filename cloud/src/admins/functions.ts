// Administrator accounts: invite by e-mail, accept with the
// mailed code, list, remove rights, change one's own password. Every change is
// in the activity log.

import { randomBytes } from 'node:crypto';
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
import { codeParam, consumeCode, hasLiveCode, issueCode, liveCodes, voidLiveCode, withdrawCode } from '../otp/codes.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';
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
    // Invitations not yet accepted follow, so that one sent by mistake can be withdrawn.
    const live = await liveCodes('admin-invite');
    const invitees = live.size
      ? await new Parse.Query(Parse.User)
          .containedIn('username', [...live.keys()])
          .ascending('username')
          .limit(LIST_MAX_LIMIT)
          .find(MASTER)
      : [];
    const members = new Set(users.map((user: User) => user.id));
    return [
      ...users.map(account),
      ...invitees
        .filter((user: User) => !members.has(user.id) && !isStudent(user))
        .map((user: User) => ({ ...account(user), invitedUntil: live.get(user.getUsername()!)!.toISOString() })),
    ];
  });

  defineFunction(deps, 'inviteAdmin', async (request) => {
    const me = await requireAdmin(request, deps);
    requireStrings(request.params, ['email', 'name']);
    const email = normalizeEmail(optionalString(request.params, 'email') ?? '');
    const name = normalizeFullname(optionalString(request.params, 'name') ?? '');
    if (!isValidEmail(email)) validationFailed(RegistrationMessage.emailInvalid, 'email');
    const badName = adminNameProblem(name);
    if (badName) validationFailed(badName, 'name');

    const existing = await findUserByEmail(email);
    if (existing && isStudent(existing)) validationFailed(AdminToolsMessage.studentEmail, 'email');
    if (existing && (await isAdmin(existing))) validationFailed(AdminToolsMessage.alreadyAdmin, 'email');

    const issued = await issueCode(deps, 'admin-invite', email, ADMIN_INVITE_TTL_SECONDS);
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
        // The account exists from now, with no password anyone knows and no rights.
        if (!existing) {
          const user = new Parse.User();
          user.set({ username: email, email, fullname: name, password: randomBytes(32).toString('base64url') });
          user.setACL(new Parse.ACL());
          await user.save(null, MASTER);
          user.setACL(ownerOnlyAcl(user));
          await user.save(null, MASTER);
        } else if (existing.get('fullname') !== name) {
          existing.set('fullname', name);
          await existing.save(null, MASTER);
        }
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

  defineFunction(deps, 'acceptAdminInvite', async ({ params }) => {
    requireStrings(params, ['email', 'password']);
    const otp = codeParam(params);
    const email = normalizeEmail(optionalString(params, 'email') ?? '');
    if (!email) validationFailed(RegistrationMessage.emailRequired, 'email');
    const password = normalizePassword(optionalString(params, 'password') ?? '');
    const problem = passwordProblem(password);
    if (problem) validationFailed(problem, 'password');

    await consumeCode(deps, 'admin-invite', email, otp);
    const user = await findUserByEmail(email);
    if (!user || isStudent(user)) fail(ErrorCode.WrongCode, ServerMessage.wrongCode);
    await recordActivity(
      {
        admin: user,
        kind: 'admin.accept',
        targetClass: '_User',
        targetId: user.id!,
        changes: [{ field: 'role', before: '', after: ADMIN_ROLE }],
      },
      async () => {
        user.setPassword(password);
        await user.save(null, MASTER);
        const role = await adminRole();
        role.getUsers().add(user);
        await role.save(null, MASTER);
      },
    );
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

  // An invitation not yet accepted: its code stops working; the account keeps no rights.
  // A call of its own, not removeAdmin's: a list read before the invitee accepted must
  // not take a Withdraw for the removal of an administrator.
  defineFunction(deps, 'withdrawAdminInvitation', async (request) => {
    const me = await requireAdmin(request, deps);
    const objectId = optionalString(request.params, 'objectId');
    const invitee = objectId ? await unlessMissing(new Parse.Query(Parse.User).get(objectId, MASTER)) : undefined;
    const email = invitee && !isStudent(invitee) ? invitee.getUsername()! : '';
    if (!email || !(await hasLiveCode('admin-invite', email))) {
      fail(ErrorCode.NotFound, AdminToolsMessage.invitationNotFound);
    }
    await recordActivity(
      {
        admin: me,
        kind: 'admin.withdraw',
        targetClass: '_User',
        targetId: objectId!,
        changes: [{ field: 'email', before: email, after: '' }],
      },
      async () => {
        // Accepted (or withdrawn) meanwhile: nothing was withdrawn, and the log says so.
        if (!(await voidLiveCode('admin-invite', email)))
          fail(ErrorCode.NotFound, AdminToolsMessage.invitationNotFound);
        // The account the invitation made goes too, unless it was an administrator once (one who
        // accepted an invitation, or whose rights were removed: the configured admin accepted
        // none): left, it would hold the address (a parent's, mistyped) against a registration.
        const adminOnce = await new Parse.Query(ACTIVITY_CLASS)
          .containedIn('kind', ['admin.accept', 'admin.remove'])
          .equalTo('targetId', objectId)
          .first(MASTER);
        if (!adminOnce) await invitee!.destroy(MASTER);
      },
    );
    return { success: true };
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
