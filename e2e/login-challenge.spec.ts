// An account under a password spray: the login page shows the
// ALTCHA proof of work, the browser solves it in the site's own worker (no CSP
// violation, no third party), and the login goes through.

import { apiCall, expect, test } from './fixtures.ts';

test('a sprayed account asks for a proof of work, and the owner gets in after solving it', async ({
  page,
  request,
  student,
}) => {
  for (let i = 0; i < 20; i++) {
    const answer = await request.post('/api/student/login', {
      data: { identifier: student.email, password: `spray-pass-${i}` },
      headers: { 'x-forwarded-for': `192.0.2.${i + 1}` },
    });
    expect(answer.status()).toBe(401);
  }
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  const thirdParty: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(new URL(page.url() || 'http://localhost').origin) && !req.url().startsWith('data:')) {
      thirdParty.push(req.url());
    }
  });

  await page.goto('/studentlogin');
  await page.getByLabel('Email ID or Mobile Number').fill(student.email);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('not a robot').first()).toBeVisible();
  await expect(page.getByTestId('login-challenge')).toBeVisible();
  // Solved in the browser, the login goes again on its own.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
  expect(problems.filter((text) => /Content Security Policy|Refused/i.test(text))).toEqual([]);
  expect(thirdParty.filter((url) => !url.startsWith('http://localhost'))).toEqual([]);

  // A solution is good once: without one, the next login is asked again.
  const again = await apiCall(request, 'POST', '/api/student/login', {
    identifier: student.email,
    password: student.password,
  });
  expect(again.body.code).toBe(3052);
});
