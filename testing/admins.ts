// Administrators made through the site's own invitation, for the tests of admin accounts.

import { expect } from 'vitest';
import type { TestSite } from './site.ts';
import { until } from './until.ts';
import { tag } from './students.ts';

export const newAdminEmail = () => `admin-${tag()}@example.com`;

/** Invites `email` as the admin of token `by`; the code of this invitation's mail (not an earlier one's). */
export async function inviteAdmin(t: TestSite, by: string, email: string): Promise<string> {
  const invitations = () => t.captures.mails.filter((m) => m.to.includes(email) && /invited/i.test(m.raw));
  const before = invitations().length;
  const res = await t.api('POST', '/api/admins', { email, name: 'Second Admin' }, by);
  expect(res.status).toBe(200);
  // Sent through the mail queue: waited for.
  await until(() => invitations().length > before, 10_000);
  // The Message-ID may hold six digits too: read the code from its sentence.
  return /Your code is (\d{6})\./.exec(invitations().at(-1)!.raw)![1]!;
}

/** A new admin, invited by the admin of token `by`, who accepted and logged in. */
export async function inviteAndAcceptAdmin(t: TestSite, by: string, password = 'Second-pass-1') {
  const email = newAdminEmail();
  const otp = await inviteAdmin(t, by, email);
  const accepted = await t.api('POST', '/api/admins/accept', { email, otp, password });
  expect(accepted.status).toBe(200);
  const login = await t.api('POST', '/api/admin/login', { email, password });
  expect(login.status).toBe(200);
  const admins = (await t.api('GET', '/api/admins', undefined, by)).body as { email: string; objectId: string }[];
  const { objectId } = admins.find((a) => a.email === email)!;
  return { email, password, token: (login.body as { token: string }).token, objectId };
}
