// Administrator accounts on the real site: invitation by mail
// with a 48-hour code, acceptance, listing, removal rules, own password change.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { RegistrationMessage } from '@tc/domain/messages';
import { PasswordChangeMessage } from '@tc/domain/password-change-messages';
import { loginAdmin, loginStudent, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { inviteAdmin, inviteAndAcceptAdmin, newAdminEmail } from '../../../testing/admins.ts';
import { until } from '../../../testing/until.ts';
import { newStudent } from '../../../testing/students.ts';
import { beginActivity, recordActivity } from '../activity/log.ts';
import { MASTER, parse } from '../parse.ts';
import { ADMIN_ROLE } from '../users/accounts.ts';

let t: TestSite;
let admin: string;
beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

const invite = (email: string, by = admin) => inviteAdmin(t, by, email);
/** As if the address's codes were sent ten minutes ago: past the resend cooldown. */
const pastCooldown = (email: string) =>
  t.sql.query(`UPDATE "OneTimeCode" SET "createdAt" = now() - interval '10 minutes' WHERE target = $1`, [email]);
const accountsOf = async (email: string) =>
  (await t.sql.query(`SELECT 1 FROM "_User" WHERE username = $1`, [email])).rowCount;
const inviteAndAccept = (password?: string) => inviteAndAcceptAdmin(t, admin, password);

/** The address's invitation as the Admins page lists it. */
const invitationRow = async (email: string) =>
  ((await t.api('GET', '/api/admins', undefined, admin)).body as { objectId: string; email: string; name: string }[])
    .filter((a) => a.email === email)
    .at(-1)!;

async function withdrawInvitationOf(email: string) {
  const { objectId } = await invitationRow(email);
  expect((await t.api('DELETE', `/api/admins/invitations/${objectId}`, undefined, admin)).status).toBe(200);
}

/** The configured administrator's account (ADMIN_EMAIL), as stored. */
async function configuredAdmin() {
  const Parse = parse();
  return (await new Parse.Query(Parse.User).equalTo('username', t.admin.email).first(MASTER))!;
}

/** The administrators' role, as stored. */
async function adminRole() {
  const Parse = parse();
  return (await new Parse.Query(Parse.Role).equalTo('name', ADMIN_ROLE).first(MASTER))!;
}

/** An invitation as earlier versions made it: the entry names the address, then the account is made. */
async function legacyInvitation(email: string) {
  const Parse = parse();
  const configured = await configuredAdmin();
  return recordActivity(
    { admin: configured, kind: 'admin.invite', targetClass: '_User', targetId: email, changes: [] },
    async () => {
      const user = new Parse.User();
      user.set({ username: email, email, fullname: 'Old Invitee', password: 'Unknown-pass-1' });
      await user.save(null, MASTER);
      return user;
    },
  );
}

describe('administrators', () => {
  it('invites by e-mail; the invitee sets a password with the code and can log in', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    const mail = await mailTo(t, email, /invited/i);
    expect(mail.replace(/=\r?\n/g, '')).toContain('/admin/accept-invite?email');
    // Before acceptance nobody can log in with it, and no account holds the address.
    expect((await t.api('POST', '/api/admin/login', { email, password: 'Second-pass-1' })).status).toBe(401);
    expect(await accountsOf(email)).toBe(0);
    const wrong = await t.api('POST', '/api/admins/accept', {
      email,
      otp: otp === '999999' ? '100000' : String(Number(otp) + 1),
      password: 'Second-pass-1',
    });
    expect(wrong.body).toMatchObject({ code: 3040, field: 'otp', error: AdminToolsMessage.invitationCodeWrong });
    expect((await t.api('POST', '/api/admins/accept', { email, otp, password: 'short' })).body.field).toBe('password');
    expect((await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' })).status).toBe(200);
    const login = await t.api('POST', '/api/admin/login', { email, password: 'Second-pass-1' });
    expect(login.status).toBe(200);
    const me = await t.api('GET', '/api/admin/me', undefined, login.body.token);
    expect(me.body).toEqual({ name: 'Second Admin', email });
    // Used once.
    expect((await t.api('POST', '/api/admins/accept', { email, otp, password: 'Other-pass-1' })).status).toBe(400);
    const kinds = (await t.api('GET', '/api/activity?limit=200', undefined, admin)).body
      .filter(
        (e: { changes: { after: string }[]; kind: string }) => e.kind === 'admin.invite' || e.kind === 'admin.accept',
      )
      .map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['admin.invite', 'admin.accept']));
  });

  it("keeps no copy of the invitation's code once the mail is sent: the database holds only its hash", async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    const sentence = `Your code is ${otp}.`;
    const copies = async () => {
      const { rows: tables } = await t.sql.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
         WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`,
      );
      let found = 0;
      for (const { schema, name } of tables) {
        const { rowCount } = await t.sql.query(`SELECT 1 FROM "${schema}"."${name}" t WHERE strpos(t::text, $1) > 0`, [
          sentence,
        ]);
        found += rowCount ?? 0;
      }
      return found;
    };
    await until(async () => (await copies()) === 0, 10_000);
    // And the code still works: only its text went.
    expect((await t.api('POST', '/api/admins/accept', { email, otp, password: 'Copy-free-1' })).status).toBe(200);
  });

  it('keeps the code 48 hours and no longer', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    const { rows } = await t.sql.query(
      `SELECT extract(epoch FROM "expiresAt" - "createdAt")::int AS s FROM "OneTimeCode" WHERE target = $1 AND active`,
      [email],
    );
    expect(rows[0].s).toBe(48 * 3600);
    await t.sql.query(`UPDATE "OneTimeCode" SET "expiresAt" = now() - interval '1 second' WHERE target = $1`, [email]);
    const late = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
    // In an invitee's words: they cannot ask for a new code themselves.
    expect(late.body).toMatchObject({ code: 3041, field: 'otp', error: AdminToolsMessage.invitationExpired });
  });

  it("refuses a student's e-mail, an admin's e-mail, and non-admin callers", async () => {
    const { student } = await register(t);
    const taken = await t.api('POST', '/api/admins', { email: student.email, name: 'X' }, admin);
    expect(taken.status).toBe(400);
    expect(taken.body.field).toBe('email');
    expect((await t.api('POST', '/api/admins', { email: t.admin.email, name: 'X' }, admin)).status).toBe(400);
    // A name a greeting would show as nothing, as a student's full name is refused.
    const blankName = await t.api('POST', '/api/admins', { email: newAdminEmail(), name: '\ufffe' }, admin);
    expect(blankName.status).toBe(400);
    expect(blankName.body).toMatchObject({ field: 'name', error: AdminToolsMessage.nameInvisible });
    const token = await loginStudent(t, student.email, student.password);
    expect((await t.api('POST', '/api/admins', { email: newAdminEmail(), name: 'X' }, token)).status).toBe(403);
    expect((await t.api('GET', '/api/admins', undefined, token)).status).toBe(403);
    // Nor may a student withdraw an invitation, or remove an administrator: the invitation stays.
    const email = newAdminEmail();
    await invite(email);
    const pending = (
      (await t.api('GET', '/api/admins', undefined, admin)).body as { objectId: string; email: string }[]
    ).find((a) => a.email === email)!;
    expect((await t.api('DELETE', `/api/admins/invitations/${pending.objectId}`, undefined, token)).status).toBe(403);
    expect((await t.api('DELETE', `/api/admins/${pending.objectId}`, undefined, token)).status).toBe(403);
    const still = (await t.api('GET', '/api/admins', undefined, admin)).body as { email: string }[];
    expect(still.map((a) => a.email)).toContain(email);
    expect((await t.api('DELETE', `/api/admins/invitations/${pending.objectId}`, undefined, admin)).status).toBe(200);
  });

  it('lists an invitation not yet accepted after the administrators, and withdraws it: its code stops working', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    const list = (await t.api('GET', '/api/admins', undefined, admin)).body as {
      objectId: string;
      email: string;
      self: boolean;
      invitedUntil?: string;
    }[];
    const pending = list.find((a) => a.email === email)!;
    expect(pending).toMatchObject({ name: 'Second Admin', self: false });
    expect(Date.parse(pending.invitedUntil!) - Date.now()).toBeGreaterThan(47 * 3600 * 1000);
    // Administrators first, then invitations; an administrator has no invitedUntil.
    expect(list.findIndex((a) => a.invitedUntil)).toBeGreaterThan(list.findLastIndex((a) => !a.invitedUntil));
    const self = list.find((a) => a.self);
    expect(self).toBeDefined();
    expect(self!.invitedUntil).toBeUndefined();

    // Removing rights is not withdrawing: an invitee is no administrator.
    expect((await t.api('DELETE', `/api/admins/${pending.objectId}`, undefined, admin)).status).toBe(404);
    const withdraw = () => t.api('DELETE', `/api/admins/invitations/${pending.objectId}`, undefined, admin);
    expect((await withdraw()).status).toBe(200);
    const after = (await t.api('GET', '/api/admins', undefined, admin)).body as { email: string }[];
    expect(after.map((a) => a.email)).not.toContain(email);
    const accept = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
    expect(accept.body.code).toBe(3040);
    expect((await t.api('POST', '/api/admin/login', { email, password: 'Second-pass-1' })).status).toBe(401);
    // Withdrawn once: a second withdrawal finds nothing to withdraw.
    expect(await withdraw()).toMatchObject({ status: 404, body: { error: AdminToolsMessage.invitationNotFound } });
    // No account holds the address (a parent's, mistyped): it can register.
    expect(await accountsOf(email)).toBe(0);
    const { result } = await register(t, newStudent({ email }));
    expect(result.status).toBe(201);
    // Logged once, by the address (the invitation made no account).
    const entries = (await t.api('GET', '/api/activity?kind=admin.withdraw&limit=200', undefined, admin)).body as {
      targetId: string;
      state: string;
    }[];
    expect(entries.filter((e) => e.targetId === email).map((e) => e.state)).toEqual(['applied']);
  });

  it('leaves nothing when an invitation expires: it leaves the list, and the address can register', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    await t.sql.query(`UPDATE "OneTimeCode" SET "expiresAt" = now() - interval '1 second' WHERE target = $1`, [email]);
    const list = (await t.api('GET', '/api/admins', undefined, admin)).body as { email: string }[];
    expect(list.map((a) => a.email)).not.toContain(email);
    expect(await accountsOf(email)).toBe(0);
    const { result } = await register(t, newStudent({ email }));
    expect(result.status).toBe(201);
    // And the late acceptance is refused as expired, not taken for the student's; an hour after
    // the expiry (the record purged), in words that do not ask to try again.
    const late = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
    expect(late.body.code).toBe(3041);
    await t.sql.query(`DELETE FROM "OneTimeCode" WHERE target = $1`, [email]);
    const later = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
    expect(later.body).toMatchObject({ code: 3040, error: AdminToolsMessage.invitationCodeWrong });
  });

  it('keeps an address a parent registered while its invitation waited: the acceptance is refused, the student gets no rights', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    // A page read now, before the parent registers, still offers Withdraw.
    const stale = (
      (await t.api('GET', '/api/admins', undefined, admin)).body as { objectId: string; email: string }[]
    ).find((a) => a.email === email)!;
    const { student, result } = await register(t, newStudent({ email }));
    expect(result.status).toBe(201);
    const accept = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
    expect(accept).toMatchObject({ status: 409, body: { field: 'email', error: AdminToolsMessage.studentEmail } });
    expect((await t.api('POST', '/api/admin/login', { email, password: 'Second-pass-1' })).status).toBe(401);
    expect((await t.api('POST', '/api/admin/login', { email, password: student.password })).status).toBe(401);
    const token = await loginStudent(t, email, student.password);
    expect((await t.api('GET', '/api/admins', undefined, token)).status).toBe(403);
    // An invitation that can no longer be accepted is not listed.
    const list = (await t.api('GET', '/api/admins', undefined, admin)).body as { email: string }[];
    expect(list.map((a) => a.email)).not.toContain(email);
    // Withdrawn from the stale page: the student's account stays, and their History says nothing of it.
    expect((await t.api('DELETE', `/api/admins/invitations/${stale.objectId}`, undefined, admin)).status).toBe(200);
    expect((await loginStudent(t, email, student.password)).length).toBeGreaterThan(0);
    const { rows } = await t.sql.query<{ objectId: string }>(`SELECT "objectId" FROM "_User" WHERE username = $1`, [
      email,
    ]);
    const history = await t.api('GET', `/api/users/${rows[0]!.objectId}/history`, undefined, admin);
    expect(history.status).toBe(200);
    expect((history.body as { kind: string }[]).map((e) => e.kind)).not.toContain('admin.withdraw');
  });

  it("keeps an administrator's password when the address became one while its invitation waited", async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    // As ADMIN_EMAIL makes sure of its administrator at a start.
    const Parse = parse();
    const user = new Parse.User();
    user.set({ username: email, email, fullname: 'Made Admin', password: 'Own-pass-123' });
    await user.save(null, MASTER);
    const role = await adminRole();
    role.getUsers().add(user);
    await role.save(null, MASTER);
    const accept = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
    expect(accept).toMatchObject({ status: 409, body: { field: 'email', error: AdminToolsMessage.acceptedAlready } });
    expect((await t.api('POST', '/api/admin/login', { email, password: 'Own-pass-123' })).status).toBe(200);
  });

  it('lists an invitation by its own id: one a newer invitation replaced is not withdrawn, the newer one is', async () => {
    const email = newAdminEmail();
    const first = await invite(email);
    const rowOf = async () =>
      ((await t.api('GET', '/api/admins', undefined, admin)).body as { objectId: string; email: string }[]).filter(
        (a) => a.email === email,
      );
    const [old] = await rowOf();
    // Past the resend cooldown, another admin (or this one) invites the address again.
    await pastCooldown(email);
    const second = await invite(email);
    const rows = await rowOf();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.objectId).not.toBe(old!.objectId);
    // The page that still shows the first invitation withdraws nothing; the newer code works.
    const stale = await t.api('DELETE', `/api/admins/invitations/${old!.objectId}`, undefined, admin);
    expect(stale).toMatchObject({ status: 404, body: { error: AdminToolsMessage.invitationNotFound } });
    expect(
      (await t.api('POST', '/api/admins/accept', { email, otp: first, password: 'Second-pass-1' })).body.code,
    ).toBe(3040);
    expect((await t.api('POST', '/api/admins/accept', { email, otp: second, password: 'Second-pass-1' })).status).toBe(
      200,
    );
  });

  it('lists an invitation mistyped five times as blocked, until it is sent again', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    const wrong = otp === '999999' ? '100000' : String(Number(otp) + 1);
    for (let i = 0; i < 5; i++) {
      await t.api('POST', '/api/admins/accept', { email, otp: wrong, password: 'Second-pass-1' });
    }
    const rowOf = async () =>
      ((await t.api('GET', '/api/admins', undefined, admin)).body as { email: string; blocked?: boolean }[]).find(
        (a) => a.email === email,
      );
    expect(await rowOf()).toMatchObject({ blocked: true });
    expect((await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' })).body).toMatchObject({
      code: 3042,
      field: 'otp',
      error: AdminToolsMessage.invitationBlocked,
    });
    await pastCooldown(email);
    const again = await invite(email);
    const resent = await rowOf();
    expect(resent).toBeDefined();
    expect(resent!.blocked).toBeUndefined();
    expect((await t.api('POST', '/api/admins/accept', { email, otp: again, password: 'Second-pass-1' })).status).toBe(
      200,
    );
  });

  it('accepts once when the code is sent twice at once: one account, one acceptance logged', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    const answers = await Promise.all(
      [0, 1].map(() => t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(await accountsOf(email)).toBe(1);
    const accepted = (await t.api('GET', '/api/activity?kind=admin.accept&limit=200', undefined, admin)).body as {
      adminEmail: string;
    }[];
    expect(accepted.filter((e) => e.adminEmail === email)).toHaveLength(1);
  });

  it("frees an address an earlier version's invitation held (it made the account when inviting): invite again and withdraw", async () => {
    const email = newAdminEmail();
    await legacyInvitation(email);
    expect((await register(t, newStudent({ email }))).result.status).toBe(409);
    await invite(email);
    // As an invitation of that version was (its code carried no name): listed by its account's name.
    await t.sql.query(`UPDATE "OneTimeCode" SET "inviteeName" = NULL WHERE target = $1`, [email]);
    const row = await invitationRow(email);
    expect(row.name).toBe('Old Invitee');
    expect((await t.api('DELETE', `/api/admins/invitations/${row.objectId}`, undefined, admin)).status).toBe(200);
    expect(await accountsOf(email)).toBe(0);
    expect((await register(t, newStudent({ email }))).result.status).toBe(201);
  });

  it("keeps on a withdrawal every account that is or may have been an administrator's, or was not the invitation's", async () => {
    // A former administrator's account stays (their history names it).
    const former = await inviteAndAccept();
    expect((await t.api('DELETE', `/api/admins/${former.objectId}`, undefined, admin)).status).toBe(200);
    await pastCooldown(former.email);
    await invite(former.email);
    await withdrawInvitationOf(former.email);
    expect(await accountsOf(former.email)).toBe(1);

    // An account an earlier invitation made, by the state of an acceptance of it: one that took
    // effect or may have (pending after a crash) keeps it, one that failed does not.
    for (const [state, kept] of [
      ['applied', 1],
      ['pending', 1],
      ['failed', 0],
    ] as const) {
      const email = newAdminEmail();
      const account = await legacyInvitation(email);
      const entry = {
        admin: account,
        kind: 'admin.accept' as const,
        targetClass: '_User',
        targetId: account.id!,
        changes: [],
      };
      if (state === 'pending') await beginActivity(entry);
      else {
        await recordActivity(entry, () =>
          state === 'failed' ? Promise.reject(new Error('the role could not be saved')) : Promise.resolve(),
        ).catch(() => undefined);
      }
      await invite(email);
      await withdrawInvitationOf(email);
      expect(await accountsOf(email), state).toBe(kept);
    }

    // An account an earlier invitation made that an administrator removed, whatever its acceptance.
    const removed = newAdminEmail();
    const removedAccount = await legacyInvitation(removed);
    await beginActivity({
      admin: removedAccount,
      kind: 'admin.remove',
      targetClass: '_User',
      targetId: removedAccount.id!,
      changes: [],
    });
    await invite(removed);
    await withdrawInvitationOf(removed);
    expect(await accountsOf(removed)).toBe(1);

    // An account made before any invitation named its address, even were an entry by the
    // address logged after it (the invitations of an existing account name its id).
    const email = newAdminEmail();
    const Parse = parse();
    const before = new Parse.User();
    before.set({ username: email, email, fullname: 'Made Before', password: 'Unknown-pass-1' });
    await before.save(null, MASTER);
    await recordActivity(
      { admin: before, kind: 'admin.invite', targetClass: '_User', targetId: email, changes: [] },
      () => Promise.resolve(),
    );
    await invite(email);
    await withdrawInvitationOf(email);
    expect(await accountsOf(email)).toBe(1);
  });

  it('leaves no account when an acceptance fails after making it, and the code works on the next try', async () => {
    const email = newAdminEmail();
    const otp = await invite(email);
    // The database refuses the acceptance's entry in the log, after the account is made.
    await t.sql.query(
      `ALTER TABLE "ActivityEntry" ADD CONSTRAINT no_accept_${email.replace(/\W/g, '_')}
       CHECK (kind <> 'admin.accept' OR "adminEmail" <> '${email}') NOT VALID`,
    );
    try {
      const failed = await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(await accountsOf(email)).toBe(0);
    } finally {
      await t.sql.query(`ALTER TABLE "ActivityEntry" DROP CONSTRAINT no_accept_${email.replace(/\W/g, '_')}`);
    }
    expect((await t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' })).status).toBe(200);
    expect((await t.api('POST', '/api/admin/login', { email, password: 'Second-pass-1' })).status).toBe(200);
  });

  it("keeps the configured administrator's account, even made after an invitation of its address and not yet in the role", async () => {
    // As a start with ADMIN_EMAIL set to an invited address makes it: the account after the
    // invitation's entry, then the role in a second step.
    const other = await inviteAndAccept();
    const configured = await configuredAdmin();
    const role = await adminRole();
    await recordActivity(
      { admin: configured, kind: 'admin.invite', targetClass: '_User', targetId: t.admin.email, changes: [] },
      () => Promise.resolve(),
    );
    await t.sql.query(`UPDATE "_User" SET "createdAt" = now() + interval '1 second' WHERE username = $1`, [
      t.admin.email,
    ]);
    role.getUsers().remove(configured);
    await role.save(null, MASTER);
    try {
      await inviteAdmin(t, other.token, t.admin.email);
      const row = (
        (await t.api('GET', '/api/admins', undefined, other.token)).body as { objectId: string; email: string }[]
      ).find((a) => a.email === t.admin.email)!;
      expect((await t.api('DELETE', `/api/admins/invitations/${row.objectId}`, undefined, other.token)).status).toBe(
        200,
      );
      expect(await accountsOf(t.admin.email)).toBe(1);
    } finally {
      role.getUsers().add(configured);
      await role.save(null, MASTER);
    }
  });

  it('never both withdraws an invitation and lets it be accepted: whichever comes first wins', async () => {
    for (const first of ['accept', 'withdraw'] as const) {
      const email = newAdminEmail();
      const otp = await invite(email);
      const list = (await t.api('GET', '/api/admins', undefined, admin)).body as { objectId: string; email: string }[];
      const { objectId } = list.find((a) => a.email === email)!;
      const accept = () => t.api('POST', '/api/admins/accept', { email, otp, password: 'Second-pass-1' });
      const withdraw = () => t.api('DELETE', `/api/admins/invitations/${objectId}`, undefined, admin);
      if (first === 'accept') {
        expect((await accept()).status).toBe(200);
        expect((await withdraw()).status).toBe(404);
      } else {
        expect((await withdraw()).status).toBe(200);
        expect((await accept()).body.code).toBe(3040);
      }
      // At once, as two admins' clicks may be: exactly one of them takes effect.
      const other = newAdminEmail();
      const code = await invite(other);
      const row = (
        (await t.api('GET', '/api/admins', undefined, admin)).body as { objectId: string; email: string }[]
      ).find((a) => a.email === other)!;
      const [a, w] = await Promise.all([
        t.api('POST', '/api/admins/accept', { email: other, otp: code, password: 'Second-pass-1' }),
        t.api('DELETE', `/api/admins/invitations/${row.objectId}`, undefined, admin),
      ]);
      expect([a.status === 200, w.status === 200].filter(Boolean), first).toHaveLength(1);
      const loggedIn = await t.api('POST', '/api/admin/login', { email: other, password: 'Second-pass-1' });
      expect(loggedIn.status === 200, first).toBe(a.status === 200);
    }
  });

  it("removes rights, never one's own; the removed admin's sessions end (the last admin: last-admin.test.ts)", async () => {
    const second = await inviteAndAccept();
    const list = await t.api('GET', '/api/admins', undefined, admin);
    const me = list.body.find((a: { self: boolean }) => a.self);
    expect(me.email).toBe(t.admin.email);
    const own = await t.api('DELETE', `/api/admins/${me.objectId}`, undefined, admin);
    expect(own.status).toBe(403);

    const removed = await t.api('DELETE', `/api/admins/${second.objectId}`, undefined, admin);
    expect(removed.status).toBe(200);
    expect((await t.api('GET', '/api/admin/me', undefined, second.token)).status).toBe(401);
    expect((await t.api('POST', '/api/admin/login', { email: second.email, password: second.password })).status).toBe(
      401,
    );
  });

  it('removes an admin once when asked three times at once: the others find no admin, and one entry is logged', async () => {
    const second = await inviteAndAccept();
    const answers = await Promise.all(
      [0, 1, 2].map(() => t.api('DELETE', `/api/admins/${second.objectId}`, undefined, admin)),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 404, 404]);
    for (const res of answers.filter((r) => r.status === 404)) {
      expect(res.body.error).toBe(AdminToolsMessage.notAnAdmin);
    }
    const log = await t.api('GET', `/api/activity?kind=admin.remove`, undefined, admin);
    expect(log.body.filter((e: { targetId: string }) => e.targetId === second.objectId)).toHaveLength(1);
  });

  it('changes its own password with the current one; the other sessions end, this one goes on', async () => {
    const second = await inviteAndAccept('First-pass-12');
    const other = (await t.api('POST', '/api/admin/login', { email: second.email, password: 'First-pass-12' })).body
      .token;
    const wrong = await t.api(
      'PUT',
      '/api/admin/password',
      { currentPassword: 'nope-nope-1', newPassword: 'Second-pass-12' },
      second.token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('currentPassword');
    expect((await t.api('GET', '/api/admin/me', undefined, second.token)).status).toBe(200);

    const changed = await t.api(
      'PUT',
      '/api/admin/password',
      { currentPassword: 'First-pass-12', newPassword: 'Second-pass-12' },
      second.token,
    );
    expect(changed.status).toBe(200);
    expect((await t.api('GET', '/api/admin/me', undefined, other)).status).toBe(401);
    expect((await t.api('GET', '/api/admin/me', undefined, changed.body.token)).status).toBe(200);
    expect((await t.api('POST', '/api/admin/login', { email: second.email, password: 'First-pass-12' })).status).toBe(
      401,
    );
    expect((await t.api('POST', '/api/admin/login', { email: second.email, password: 'Second-pass-12' })).status).toBe(
      200,
    );
  });

  it("answers an empty e-mail or password at login with the form's own words, never Parse's", async () => {
    const noPassword = await t.api('POST', '/api/admin/login', { email: t.admin.email, password: '' });
    // The contract answers every failed admin login with 401 {success:false, error}.
    expect(noPassword.status).toBe(401);
    expect(noPassword.body).toMatchObject({ error: RegistrationMessage.passwordRequired, field: 'password' });
    const noEmail = await t.api('POST', '/api/admin/login', { email: ' ', password: '' });
    expect(noEmail.status).toBe(401);
    expect(noEmail.body).toMatchObject({ error: RegistrationMessage.emailRequired, field: 'email' });
    const noCurrent = await t.api(
      'PUT',
      '/api/admin/password',
      { currentPassword: '', newPassword: 'Whatever-12' },
      admin,
    );
    expect(noCurrent.status).toBe(400);
    expect(noCurrent.body).toMatchObject({ error: PasswordChangeMessage.currentRequired, field: 'currentPassword' });
  });
});
