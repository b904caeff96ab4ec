// Registrations under concurrency: one mobile gives one student,
// and enrollment numbers are never duplicated.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsCode, startTestSite, type TestSite } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ RATE_LIMIT_MAX: '1000' });
});
afterAll(async () => {
  await t?.stop();
});

describe('concurrent registrations', () => {
  it('10 at once with one mobile give exactly one student', async () => {
    const mobile = newStudent().mobile;
    await t.api('POST', '/api/send-sms', { mobile });
    const otp = await smsCode(t, mobile);
    const attempts = Array.from({ length: 10 }, () => newStudent({ mobile }));
    const answers = await Promise.all(attempts.map((s) => t.api('POST', '/api/register', { ...s, otp })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 201)) expect(r.status).toBeLessThan(500);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "_User" WHERE mobile = $1`, [mobile]);
    expect(rows[0].n).toBe(1);
  });

  it('20 at once give 20 distinct enrollment numbers', async () => {
    const students = Array.from({ length: 20 }, () => newStudent());
    await Promise.all(students.map((s) => t.api('POST', '/api/send-sms', { mobile: s.mobile })));
    const codes = await Promise.all(students.map((s) => smsCode(t, s.mobile)));
    const answers = await Promise.all(students.map((s, i) => t.api('POST', '/api/register', { ...s, otp: codes[i] })));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = answers.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(Number.isInteger(id) && id > 0).toBe(true);
  });

  it('the database itself refuses a second student with the same mobile', async () => {
    const mobile = newStudent().mobile;
    const insert = (objectId: string) =>
      t.sql.query(`INSERT INTO "_User" ("objectId", username, email, mobile) VALUES ($1, $2, $2, $3)`, [
        objectId,
        `${objectId}@example.com`,
        mobile,
      ]);
    await insert(`a${Date.now()}`);
    await expect(insert(`b${Date.now()}`)).rejects.toThrow(/unique/);
  });
});
