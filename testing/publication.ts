// What the tests of publication mails share: a batch of registered students, a draft
// with their marks, the wait until a publication's mails are queued (refused by the mail server at least
// once), and the marks mails a student got, as text.

import { register, type TestSite } from './site.ts';
import { newStudent } from './students.ts';
import { until } from './until.ts';

export interface BatchStudent {
  email: string;
  password: string;
  id: number;
}

/** `count` new students of one batch, with their e-mails in lower case, passwords and enrollment ids. */
export async function batchOf(site: TestSite, count: number, grade: number, board: string): Promise<BatchStudent[]> {
  const students: BatchStudent[] = [];
  for (let i = 0; i < count; i++) {
    const { student, result } = await register(site, newStudent({ grade, board }));
    if (result.status !== 201) throw new Error(`register: ${result.status} ${JSON.stringify(result.body)}`);
    students.push({
      email: student.email.toLowerCase(),
      password: student.password,
      id: (result.body as { id: number }).id,
    });
  }
  return students;
}

export interface DraftFields {
  grade: number;
  board: string;
  subject: string;
  title: string;
  date: string;
  maxMarks: number;
}

/** A draft assessment made by the admin, with these marks entered: its objectId. */
export async function draftWithMarks(
  site: TestSite,
  admin: string,
  fields: DraftFields,
  rows: { id: number; value: string }[],
): Promise<string> {
  const made = await site.api('POST', '/api/assessments', fields, admin);
  if (made.status !== 201) throw new Error(`create: ${made.status} ${JSON.stringify(made.body)}`);
  const id = (made.body as { objectId: string }).objectId;
  const saved = await site.api('PUT', `/api/assessments/${id}/marks`, { rows }, admin);
  if (saved.status !== 200) throw new Error(`marks: ${saved.status} ${JSON.stringify(saved.body)}`);
  return id;
}

/** Waits until `count` mails of the assessment's publication are queued and tried at least once. */
export async function untilPublicationQueued(site: TestSite, assessmentId: string, count: number): Promise<void> {
  await until(async () => {
    const { rows } = await site.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_delivery WHERE state = 'queued' AND attempts >= 1 AND key LIKE $1`,
      [`marks-published:${assessmentId}:%`],
    );
    return rows[0]!.n === count;
  }, 15_000);
}

/** The marks mails the mail server took for an address, as text (quoted-printable line breaks joined). */
export function marksMails(site: TestSite, email: string): string[] {
  return site.captures.mails
    .filter((m) => m.to.includes(email) && m.raw.includes('New marks in'))
    .map((m) => m.raw.replace(/=\r?\n/g, ''));
}
