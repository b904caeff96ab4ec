// Parse Dashboard in a real browser: the operator logs in with the admin login and
// browses the students' class with the read-only key, which the site takes only
// beside the dashboard's session cookie (read-only-key-guard.ts). The browser plays
// an operator away from the server (X-Forwarded-For), where the key alone reads nothing.

import { ServerMessage } from '../domain/src/server-messages.ts';
import { admin, expect, site, test } from './fixtures.ts';

test('an operator logs in to Parse Dashboard and browses the accounts with the read-only key', async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.77' });
  // The dashboard works within its Content-Security-Policy (app.ts): nothing it needs is refused.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.goto('/parse-dashboard/login');
  await page.getByRole('textbox', { name: /username/i }).fill(admin.email);
  await page.locator('input[type="password"]').fill(admin.password);
  await page.getByRole('button', { name: /log in/i }).click();
  await expect(page).toHaveURL(/\/parse-dashboard\/apps/);

  await page.goto('/parse-dashboard/apps/Guided%20Learning/browser/_User');
  // A cell of the data browser (the header names the login in a div of its own).
  await expect(page.locator('span', { hasText: admin.email }).first()).toBeVisible();
  // Another class as an operator moves around: its rows shown (a cell of the data, not the
  // class's name in the menu), everything the page needed allowed by its policy.
  await page.goto('/parse-dashboard/apps/Guided%20Learning/browser/_Role');
  await expect(page.locator('span', { hasText: /^admin$/ }).first()).toBeVisible();
  expect(refused).toEqual([]);

  // The same key without the login, from the same address: refused.
  const config = await page.request.get(`${site.url}/parse-dashboard/parse-dashboard-config.json`);
  const key = ((await config.json()) as { apps: { masterKey: string; appId: string }[] }).apps[0]!;
  const alone = await fetch(`${site.url}/parse/classes/_User?limit=1`, {
    headers: {
      'x-parse-application-id': key.appId,
      'x-parse-master-key': key.masterKey,
      'x-forwarded-for': '203.0.113.77',
    },
  });
  expect(alone.status).toBe(403);
  expect(((await alone.json()) as { error: string }).error).toBe(ServerMessage.readOnlyKeyNeedsLogin);
});
