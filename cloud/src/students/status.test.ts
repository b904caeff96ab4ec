// Deactivation, reactivation and erasure on the real site.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { loginAdmin, loginStudent, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';
import { MASTER, parse } from '../parse.ts';

let t: TestSite;
let admin: string;
beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

async function registered() {
  const { student, result } = await register(t);
  expect(result.status).toBe(201);
  return { student, objectId: result.body.objectId as string, id: result.body.id as number };
}

describe('deactivation', () => {
  it('revokes every session at once, refuses login with the message, hides the student; reactivation restores', async () => {
    const { student, objectId } = await registered();
    const tokens = [
      await loginStudent(t, student.email, student.password),
      await loginStudent(t, student.mobile, student.password),
    ];
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(200);

    const off = await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, admin);
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('deactivated');
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "_Session" WHERE "user" = $1`, [
      `_User$${objectId}`,
    ]);
    expect(rows[0].n).toBe(0);

    const refused = await t.api('POST', '/api/student/login', {
      identifier: student.email,
      password: student.password,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(AdminToolsMessage.accountDeactivated);
    expect(refused.body.code).toBe(3053);
    // A wrong password still gets the ordinary answer: the status is told only to the owner.
    const wrong = await t.api('POST', '/api/student/login', { identifier: student.email, password: 'wrong-pass-1' });
    expect(wrong.body.error).not.toBe(AdminToolsMessage.accountDeactivated);

    const byDefault = await t.api('GET', `/api/users?q=${encodeURIComponent(student.email)}`, undefined, admin);
    expect(byDefault.body).toEqual([]);
    const shown = await t.api(
      'GET',
      `/api/users?status=deactivated&q=${encodeURIComponent(student.email)}`,
      undefined,
      admin,
    );
    expect(shown.body.map((r: { objectId: string }) => r.objectId)).toEqual([objectId]);
    const all = await t.api('GET', `/api/users?status=all&q=${encodeURIComponent(student.email)}`, undefined, admin);
    expect(all.body).toHaveLength(1);
    expect((await t.api('GET', '/api/users?status=gone', undefined, admin)).status).toBe(400);

    const on = await t.api('PUT', `/api/users/${objectId}/status`, { status: 'active' }, admin);
    expect(on.body.status).toBe('active');
    expect(await loginStudent(t, student.email, student.password)).toBeTruthy();
    const listed = await t.api('GET', `/api/users?q=${encodeURIComponent(student.email)}`, undefined, admin);
    expect(listed.body).toHaveLength(1);

    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body.map((e: { kind: string }) => e.kind)).toEqual(['student.reactivate', 'student.deactivate']);
    expect(history.body[1].changes).toEqual([{ field: 'status', before: 'active', after: 'deactivated' }]);
    expect(history.body.every((e: { state: string }) => e.state === 'applied')).toBe(true);
  });

  it('ends a session whose login was under way when the student was deactivated', async () => {
    const { student, objectId } = await registered();
    const [profileToken, progressToken] = [
      await loginStudent(t, student.email, student.password),
      await loginStudent(t, student.email, student.password),
    ];
    // The login read the account before the deactivation, whose revocation came before its
    // session existed: the account is deactivated, the session is still there.
    await t.sql.query(`UPDATE "_User" SET status = 'deactivated' WHERE "objectId" = $1`, [objectId]);
    expect((await t.api('GET', '/api/students/me', undefined, profileToken)).status).toBe(401);
    expect((await t.api('GET', '/api/students/me/progress', undefined, progressToken)).status).toBe(401);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "_Session" WHERE "user" = $1`, [
      `_User$${objectId}`,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('ends every session when sent three times at once, each answered 200; so does "log out of all devices"', async () => {
    const { student, objectId } = await registered();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) tokens.push(await loginStudent(t, student.email, student.password));
    // Three "log out of all devices" at once: each ends what the others have not (a session
    // another ended meanwhile is no failure), or finds its own ended already (401).
    const logouts = await Promise.all(tokens.map((token) => t.api('POST', '/api/student/logout-all', {}, token)));
    for (const res of logouts) {
      expect([200, 401], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 401) expect(res.body.error).toBeTruthy();
    }
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);

    for (let i = 0; i < 3; i++) tokens.push(await loginStudent(t, student.email, student.password));
    const deactivations = await Promise.all(
      [0, 1, 2].map(() => t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, admin)),
    );
    expect(
      deactivations.map((res) => res.status),
      JSON.stringify(deactivations.map((res) => res.body)),
    ).toEqual([200, 200, 200]);
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
  });

  it('is for admins only and refuses a bad status', async () => {
    const { student, objectId } = await registered();
    const token = await loginStudent(t, student.email, student.password);
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, token)).status).toBe(403);
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' })).status).toBe(401);
    const bad = await t.api('PUT', `/api/users/${objectId}/status`, { status: 'gone' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('status');
    expect((await t.api('PUT', `/api/users/nope/status`, { status: 'deactivated' }, admin)).status).toBe(404);
  });
});

/** Every row of every table of the database, as text, that contains the value. */
async function rowsContaining(value: string): Promise<string[]> {
  const { rows: tables } = await t.sql.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await t.sql.query(
      `SELECT t::text AS row FROM "${name}" t WHERE strpos(lower(t::text), lower($1)) > 0`,
      [value],
    );
    found.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return found;
}

describe('erasure', () => {
  it('needs the typed confirmation', async () => {
    const { objectId } = await registered();
    const res = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'erase' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('confirm');
  });

  it('leaves no personal value anywhere, the log included; keeps the enrollment number; stops mail and logins', async () => {
    const { student, objectId, id } = await registered();
    const token = await loginStudent(t, student.email, student.password);
    // Earlier changes put personal values in the log.
    const newMobile = `8${String(Date.now()).slice(-9)}`;
    const edited = await t.api('PUT', `/api/users/${objectId}`, { mobile: newMobile }, admin);
    expect(edited.status).toBe(200);
    // A pending reset code is stored by e-mail.
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(200);
    await mailTo(t, student.email, /reset code/i);
    // A mail to the address that bounced for good: the mail server's answer names the address.
    await t.sql.query(`INSERT INTO mail_delivery (key, state, message, last_error) VALUES ($1, 'failed', $2, $3)`, [
      `bounced:${objectId}`,
      JSON.stringify({ to: student.email, subject: 'Notice', text: 'x' }),
      `550 5.1.1 <${student.email}>: Recipient address rejected`,
    ]);
    for (const value of [student.email, newMobile, student.mobile, student.fullname]) {
      expect((await rowsContaining(value)).length).toBeGreaterThan(0);
    }

    const erased = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({
      objectId,
      id,
      erased: true,
      status: 'deactivated',
      fullname: 'Erased student',
    });
    expect(erased.body.email).toMatch(/@erased\.invalid$/);

    for (const value of [student.email, student.mobile, newMobile, student.fullname]) {
      expect(await rowsContaining(value), value).toEqual([]);
    }
    // Test students share birthdays: no row about this one holds it.
    const aboutIt = (await rowsContaining(student.dob)).filter((row) => row.includes(objectId));
    expect(aboutIt).toEqual([]);
    expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    const login = await t.api('POST', '/api/student/login', { identifier: student.email, password: student.password });
    expect(login.status).toBe(401);

    // The record of the erasure remains, with fields and no values that went.
    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body[0].kind).toBe('student.erase');
    expect(history.body[0].enrollmentId).toBe(id);
    expect(history.body[0].changes.map((c: { field: string }) => c.field)).toContain('email');
    const update = history.body.find((e: { kind: string }) => e.kind === 'student.update');
    expect(update.changes).toEqual([{ field: 'mobile', before: '[erased]', after: '[erased]' }]);

    // No mail reaches an erased account, by any path.
    // (Counted for the erased address only: other tests' welcome mails arrive meanwhile.)
    const mailsToErased = () => t.captures.mails.filter((m) => m.to.includes(erased.body.email)).length;
    const mailsBefore = mailsToErased();
    // A reset asked for its address: refused as any address at the never-resolving domain is.
    expect((await t.api('POST', '/api/send-email-otp', { email: erased.body.email })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsToErased()).toBe(mailsBefore);

    // Nothing about it changes any more, and a second erasure is refused.
    expect((await t.api('PUT', `/api/users/${objectId}`, { grade: 5 }, admin)).status).toBe(403);
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'active' }, admin)).status).toBe(403);
    expect((await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(400);
  });

  it('runs one of edits and erasures sent at once after the other: no value typed is kept after the erasure', async () => {
    const { student, objectId } = await registered();
    const typed = `typed-${Date.now()}@example.com`;
    const [erasures, edit] = await Promise.all([
      Promise.all([0, 1, 2].map(() => t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin))),
      t.api('PUT', `/api/users/${objectId}`, { email: typed, grade: 5 }, admin),
    ]);
    // One erasure; the others find it done, and say so.
    expect(erasures.map((res) => res.status).sort()).toEqual([200, 400, 400]);
    for (const res of erasures.filter((r) => r.status === 400)) {
      expect(res.body.error).toBe(AdminToolsMessage.alreadyErased);
    }
    // The edit came before the erasure (which then cleared its values) or after it (refused).
    expect([200, 403]).toContain(edit.status);
    for (const value of [typed, student.email, student.fullname]) {
      expect(await rowsContaining(value), value).toEqual([]);
    }
    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body.filter((e: { kind: string }) => e.kind === 'student.erase')).toHaveLength(1);
  });

  it('finishes, when "Erase" is pressed again, an erasure a fault stopped after the account was saved', async () => {
    const { student, objectId, id } = await registered();
    const token = await loginStudent(t, student.email, student.password);
    const newMobile = `7${String(Date.now()).slice(-9)}`;
    expect((await t.api('PUT', `/api/users/${objectId}`, { mobile: newMobile }, admin)).status).toBe(200);
    // The database refuses to redact the log, the erasure's last step.
    const trigger = `refuse_redaction_${objectId.toLowerCase()}`;
    await t.sql.query(`CREATE OR REPLACE FUNCTION refuse_redaction() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'disk full'; END $$`);
    await t.sql.query(`CREATE TRIGGER ${trigger} BEFORE UPDATE ON "ActivityEntry" FOR EACH ROW
      WHEN (OLD."targetId" = '${objectId}' AND OLD.kind = 'student.update') EXECUTE FUNCTION refuse_redaction()`);
    try {
      const failed = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin);
      // The database's words stay in the log.
      expect(failed.status).toBe(500);
      expect(failed.body).toMatchObject({ error: ServerMessage.internal, code: ErrorCode.Internal });
    } finally {
      await t.sql.query(`DROP TRIGGER ${trigger} ON "ActivityEntry"`);
    }
    // A mail about the student, kept meanwhile, to an address the log does not know.
    await t.sql.query(`INSERT INTO mail_delivery (key, state, message, account_id) VALUES ($1, 'failed', $2, $3)`, [
      `held:${objectId}`,
      JSON.stringify({ to: 'kept-copy@example.com', subject: 'Marks', text: 'x' }),
      objectId,
    ]);
    // A reset asked meanwhile for the account's new address: refused (no mail reaches the
    // never-resolving domain), so no code is made for it.
    const erasedAddress = `erased-${objectId.toLowerCase()}@erased.invalid`;
    expect((await t.api('POST', '/api/send-email-otp', { email: erasedAddress })).status).toBe(400);
    const codesFor = async (target: string) =>
      (await t.sql.query(`SELECT 1 FROM "OneTimeCode" WHERE target = $1`, [target])).rowCount;
    expect(await codesFor(erasedAddress)).toBe(0);
    // Erased, the steps before the fault done, the log not yet redacted: the table says so.
    expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    expect((await rowsContaining(newMobile)).length).toBeGreaterThan(0);
    const listed = async () =>
      (await t.api('GET', `/api/users?status=all&q=erased-${objectId.toLowerCase()}`, undefined, admin)).body.find(
        (r: { objectId: string }) => r.objectId === objectId,
      );
    expect(await listed()).toMatchObject({ erased: true, erasureUnfinished: true, fullname: 'Erased student' });
    // Still refused: any other change.
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'active' }, admin)).status).toBe(403);

    const finished = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin);
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ id, erased: true });
    expect(finished.body.erasureUnfinished).toBeUndefined();
    expect((await listed()).erasureUnfinished).toBeUndefined();
    expect(await codesFor(erasedAddress)).toBe(0);
    for (const value of [newMobile, student.mobile, student.email, student.fullname, 'kept-copy@example.com']) {
      expect(await rowsContaining(value), value).toEqual([]);
    }
    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body.map((e: { kind: string; state: string }) => `${e.kind} ${e.state}`)).toEqual([
      'student.erase applied',
      'student.erase applied',
      'student.update applied',
    ]);
    expect(history.body[0].changes).toEqual([{ field: 'erasure', before: 'unfinished', after: 'finished' }]);
    // Done: a third time is refused as before.
    const again = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(AdminToolsMessage.alreadyErased);
  });

  it('stops a mail to the student that is in a batch already being sent', async () => {
    // The queue sends a batch five at a time, in an order of its own: the student's mail is
    // queued behind fifteen others, and a try in which it went out before the erasure had
    // finished (among the first five) is tried again with another student.
    const slow = 1_000;
    let seen = false;
    t.captures.mailDelayMs = slow;
    try {
      for (let attempt = 0; attempt < 6 && !seen; attempt++) {
        const { student, objectId } = await registered();
        await mailTo(t, student.email, /welcome/i);
        const stamp = `${Date.now()}-${attempt}`;
        const notice = (to: string) => ({
          message: { to, subject: 'Notice', text: 'Classes resume on Monday.' },
          idempotencyKey: `test:${to}:${stamp}`,
        });
        const others = (batch: string, count: number) =>
          Array.from({ length: count }, (_, i) => `${batch}-${i}-${stamp}@example.com`);
        const [first, second] = [others('first', 5), others('second', 15)];
        const from = t.captures.mailsBegun.length;
        const begun = (to: string) => t.captures.mailsBegun.slice(from).some((r) => r.includes(to));
        // A first batch takes the five connections; the next one, queued meanwhile, holds the
        // student's mail with the fifteen others.
        await t.site.mailQueue.enqueueMany(first.map(notice));
        await until(() => first.every(begun), 20_000);
        await t.site.mailQueue.enqueueMany(second.map(notice));
        await t.site.mailQueue.enqueueMany([notice(student.email)]);
        await until(() => second.some(begun), 20_000);
        const erased = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin);
        expect(erased.status).toBe(200);
        const wentBefore = begun(student.email);
        await until(() => second.every((to) => t.captures.mails.some((m) => m.to.includes(to))), 30_000);
        await new Promise((resolve) => setTimeout(resolve, slow + 1_000));
        if (wentBefore) continue;
        seen = true;
        const notices = t.captures.mails.filter((m) => m.to.includes(student.email) && /Notice/.test(m.raw));
        expect(notices).toEqual([]);
      }
    } finally {
      t.captures.mailDelayMs = 0;
    }
    expect(seen).toBe(true);
  }, 180_000);

  it('refuses a change loaded before the erasure and saved after it', async () => {
    const { objectId } = await registered();
    const Parse = parse();
    // An admin's edit and a reactivation have read the account; the erasure comes first.
    const edit = await new Parse.Query(Parse.User).get(objectId, MASTER);
    const reactivation = await new Parse.Query(Parse.User).get(objectId, MASTER);
    expect((await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    edit.set('mobile', '9123456789');
    await expect(edit.save(null, MASTER)).rejects.toMatchObject({ message: AdminToolsMessage.erasedCannotChange });
    reactivation.set('status', 'active');
    await expect(reactivation.save(null, MASTER)).rejects.toMatchObject({
      message: AdminToolsMessage.erasedCannotChange,
    });
    const { rows } = await t.sql.query(`SELECT mobile, status FROM "_User" WHERE "objectId" = $1`, [objectId]);
    expect(rows[0]).toEqual({ mobile: null, status: 'deactivated' });
  });

  it('keeps an erased account erased when a write checked before the erasure lands after it', async () => {
    const { objectId } = await registered();
    expect((await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    const read = `SELECT fullname, email, username, mobile, dob, gender, status, "erasedAt" FROM "_User" WHERE "objectId" = $1`;
    const erased = (await t.sql.query(read, [objectId])).rows[0];
    // As Parse writes an edit or a reactivation whose check passed a moment before: no condition.
    await t.sql.query(
      `UPDATE "_User" SET fullname = 'Back Again', email = 'back@example.com', username = 'back@example.com',
         mobile = '9123456789', dob = '2015-01-01', gender = 'Son', status = 'active', "erasedAt" = NULL,
         "erasurePending" = true
       WHERE "objectId" = $1`,
      [objectId],
    );
    expect((await t.sql.query(read, [objectId])).rows[0]).toEqual(erased);
    // What is not personal still changes (the erasure's own steps).
    const { rows } = await t.sql.query(`SELECT "erasurePending" FROM "_User" WHERE "objectId" = $1`, [objectId]);
    expect(rows[0].erasurePending).toBe(true);
  });

  it('keeps the unique indexes: two erased students side by side', async () => {
    const a = await registered();
    const b = await registered();
    expect((await t.api('POST', `/api/users/${a.objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    expect((await t.api('POST', `/api/users/${b.objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    const both = await t.api('GET', '/api/users?status=deactivated&q=erased.invalid&limit=500', undefined, admin);
    const ids = both.body.map((r: { objectId: string }) => r.objectId);
    expect(ids).toEqual(expect.arrayContaining([a.objectId, b.objectId]));
  });
});
