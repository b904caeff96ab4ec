// GET /api/users/export.csv on the real site: admin only, the
// listing's view in CSV (BOM, DD/MM/YYYY, formula guard), every row of it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { EXPORT_COLUMNS, EXPORT_PATH } from '@tc/domain/admin-tools';
import { gradeLabel } from '@tc/domain/registration';
import { SEARCH_MAX_LENGTH } from '@tc/domain/constants';
import { seedStudents } from '../database/seed.ts';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';

let t: TestSite;
let admin: string;
beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

async function download(query = '', token: string = admin) {
  const res = await fetch(`${t.url}${EXPORT_PATH}${query}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, text: bytes.toString('utf8') };
}

function rowsOf(text: string): string[][] {
  return parseCsv(text, { bom: true });
}

describe('the CSV export', () => {
  it('is for admins only', async () => {
    expect((await download('', '')).res.status).toBe(401);
    expect((await download('', 'not-a-token')).res.status).toBe(401);
    // Asking whether there is a file (HEAD) sends none and records none.
    const head = await fetch(`${t.url}${EXPORT_PATH}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await fetch(`${t.url}${EXPORT_PATH}`, { method: 'HEAD' })).status).toBe(401);
    const { student } = await register(t);
    const token = await loginStudent(t, student.email, student.password);
    const refused = await download('', token);
    expect(refused.res.status).toBe(403);
    expect(JSON.parse(refused.text).code).toBe(119);
  });

  it('guards formulas, writes UTF-8 with a BOM and DD/MM/YYYY dates', async () => {
    const evil = newStudent({ fullname: '=HYPERLINK("http://x","y")' });
    const { result } = await register(t, evil);
    expect(result.status).toBe(201);
    // Stored values a spreadsheet would run: the registration rules refuse most, so put them in directly.
    const tricky = ['+91 sum', '-2+3', '@cmd', '\tTab', '\rCR', 'Ünïcödé नाम'];
    const ids: number[] = [];
    for (const name of tricky) {
      const { result: r } = await register(t, newStudent());
      await t.sql.query(`UPDATE "_User" SET fullname = $1 WHERE "objectId" = $2`, [name, r.body.objectId]);
      ids.push(r.body.id);
    }
    const { res, bytes, text } = await download('?sort=id');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="students-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = rowsOf(text);
    expect(rows[0]).toEqual(['ID', 'Full Name', 'Gender', 'Mobile', 'Email', 'Date of Birth', 'Board', 'Grade']);
    expect(rows[0]).toEqual(EXPORT_COLUMNS);
    const byId = new Map(rows.slice(1).map((row) => [Number(row[0]), row]));
    const evilRow = byId.get(result.body.id)!;
    expect(evilRow[1]).toBe(`'=HYPERLINK("http://x","y")`);
    expect(evilRow[5]).toBe(evil.dob.split('-').reverse().join('/'));
    expect(evilRow[7]).toBe(gradeLabel(evil.grade));
    expect(evilRow).toHaveLength(8);
    expect(ids.map((id) => byId.get(id)![1])).toEqual(["'+91 sum", "'-2+3", "'@cmd", "'\tTab", "'\rCR", 'Ünïcödé नाम']);
  });

  it('exports every row of the filtered, sorted view, a few thousand of them', async () => {
    await seedStudents(t.sql, 3000);
    const listed = await t.api('GET', '/api/users?grade=3&board=CBSE&sort=-fullname&limit=500', undefined, admin);
    const total = Number(listed.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(50);
    const { res, text } = await download('?grade=3&board=CBSE&sort=-fullname');
    expect(res.status).toBe(200);
    const rows = rowsOf(text).slice(1);
    expect(rows).toHaveLength(total);
    expect(rows.every((row) => row[7] === '3rd' && row[6] === 'CBSE')).toBe(true);
    // Same order as the table's first page.
    expect(rows.slice(0, listed.body.length).map((row) => Number(row[0]))).toEqual(
      listed.body.map((s: { id: number }) => s.id),
    );
    const all = rowsOf((await download('')).text).slice(1);
    const everyone = await t.api('GET', '/api/users?limit=1', undefined, admin);
    expect(all).toHaveLength(Number(everyone.headers.get('x-total-count')));
  });

  it('follows the search and the status filter, and refuses bad filters with 400', async () => {
    const { student, result } = await register(t);
    const query = `?q=${encodeURIComponent(student.email)}`;
    expect(
      rowsOf((await download(query)).text)
        .slice(1)
        .map((r) => Number(r[0])),
    ).toEqual([result.body.id]);
    // A mobile written as people write it finds the student, as in the admin's table.
    const { mobile } = student;
    for (const written of [`+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`, `0${mobile}`, `+91 ${mobile.slice(0, 7)}`]) {
      const ids = rowsOf((await download(`?q=${encodeURIComponent(written)}`)).text)
        .slice(1)
        .map((r) => Number(r[0]));
      expect(ids, written).toContain(result.body.id);
    }
    await t.api('PUT', `/api/users/${result.body.objectId}/status`, { status: 'deactivated' }, admin);
    expect(rowsOf((await download(query)).text).slice(1)).toEqual([]);
    const shown = rowsOf((await download(`${query}&status=deactivated`)).text).slice(1);
    expect(shown.map((r) => Number(r[0]))).toEqual([result.body.id]);
    // A filter given twice is refused too, not dropped (which exported every student).
    for (const bad of [
      '?grade=12',
      '?board=IB',
      '?status=gone',
      '?sort=password',
      '?grade=3&grade=4',
      '?q=a&q=b',
      '?status=all&status=active',
      '?sort=id&sort=-id',
    ]) {
      const { res, text } = await download(bad);
      expect(res.status, bad).toBe(400);
      expect(JSON.parse(text).error).toBeTruthy();
    }
    expect(JSON.parse((await download('?grade=3&grade=4')).text).error).toBe(
      'grade is given more than once: give it once',
    );
    // A search as long as the table takes, and no longer, with the table's message.
    expect((await download(`?q=${'a'.repeat(SEARCH_MAX_LENGTH)}`)).res.status).toBe(200);
    const long = `?q=${'a'.repeat(SEARCH_MAX_LENGTH + 1)}`;
    const listed = await t.api('GET', `/api/users${long}`, undefined, admin);
    expect(listed.status).toBe(400);
    const exported = await download(long);
    expect(exported.res.status).toBe(400);
    expect(JSON.parse(exported.text).error).toBe(listed.body.error);
  });

  it('is recorded in the activity log: who took which view, a search named but not quoted', async () => {
    const { student } = await register(t);
    const query = `?q=${encodeURIComponent(student.fullname)}&grade=7&board=ICSE&status=all&sort=-fullname`;
    expect((await download(query)).res.status).toBe(200);
    const activity = await t.api('GET', '/api/activity?limit=5', undefined, admin);
    expect(activity.status).toBe(200);
    const entry = (activity.body as { kind: string }[]).find((e) => e.kind === 'students.export');
    expect(entry).toMatchObject({
      kind: 'students.export',
      state: 'applied',
      adminEmail: t.admin.email.toLowerCase(),
      changes: [{ field: 'view', before: '', after: 'a search · grade 7 · ICSE · every status · sorted by -fullname' }],
    });
    expect(JSON.stringify(activity.body)).not.toContain(student.fullname);
    // A refused export is no export: nothing recorded.
    const before = (await t.sql.query(`SELECT count(*)::int AS n FROM "ActivityEntry" WHERE kind = 'students.export'`))
      .rows[0].n as number;
    expect((await download('?grade=12')).res.status).toBe(400);
    expect((await download('', 'not-a-token')).res.status).toBe(401);
    // Asking whether there is a file (HEAD) sends none and records none.
    const head = await fetch(`${t.url}${EXPORT_PATH}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await fetch(`${t.url}${EXPORT_PATH}`, { method: 'HEAD' })).status).toBe(401);
    const after = (await t.sql.query(`SELECT count(*)::int AS n FROM "ActivityEntry" WHERE kind = 'students.export'`))
      .rows[0].n as number;
    expect(after).toBe(before);
  });
});
