// A page or list whose data does not come says so and offers "Try again": axe-clean at
// 320 and 1280 px, and the retry loads it once the network is back.

import type { Page } from '@playwright/test';
import { createStudent, expect, expectAccessible, snap, studentToken, test } from './fixtures.ts';

/** Answers the paths matching `pattern` with a 503 while `down()` is true. */
async function failWhile(page: Page, pattern: RegExp, down: () => boolean): Promise<void> {
  await page.route(pattern, (route) =>
    down()
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":3503,"error":"Try again"}' })
      : route.fallback(),
  );
}

test("a student's progress and timetable that did not load, then Try again", async ({ page, request }) => {
  test.setTimeout(120_000);
  const student = await createStudent(request, { grade: 6, board: 'CBSE' });
  const token = await studentToken(request, student.email, student.password);
  await page.goto('/studentlogin');
  await page.evaluate(`sessionStorage.setItem('userData', ${JSON.stringify(JSON.stringify({ tokenStudent: token }))})`);
  let down = true;
  await failWhile(page, /\/api\/students\/me\/(progress|schedule)/, () => down);
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/dashboard/progress');
    await expect(page.getByText('Your results could not be loaded.')).toBeVisible();
    await snap(page, `progress-failed-${width}`);
    await expectAccessible(page, `the progress page that did not load at ${width} px`);
    await page.goto('/dashboard');
    await expect(page.getByText('Your timetable could not be loaded.')).toBeVisible();
    await snap(page, `timetable-failed-${width}`);
    await expectAccessible(page, `the dashboard whose timetable did not load at ${width} px`);
  }
  down = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('region', { name: 'This week' })).toBeVisible();
});

test("a student's profile that did not load, then Try again", async ({ page, request }) => {
  const student = await createStudent(request, { grade: 4, board: 'ICSE' });
  const token = await studentToken(request, student.email, student.password);
  await page.goto('/studentlogin');
  await page.evaluate(`sessionStorage.setItem('userData', ${JSON.stringify(JSON.stringify({ tokenStudent: token }))})`);
  let down = true;
  await failWhile(page, /\/api\/students\/me$/, () => down);
  const profile = page.getByRole('region', { name: 'Your Profile' });
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/dashboard');
    await expect(profile.getByRole('status')).toHaveText('No user data available');
    await snap(page, `profile-failed-${width}`);
    await expectAccessible(page, `the dashboard whose profile did not load at ${width} px`);
  }
  down = false;
  await profile.getByRole('button', { name: 'Try again' }).click();
  await expect(profile.getByText(student.email)).toBeVisible();
  await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
});

test('the admin timetable, holidays, administrators and activity that did not load, then Try again', async ({
  adminPage: page,
}) => {
  test.setTimeout(120_000);
  let down = true;
  await failWhile(page, /\/api\/(timetable\/slots|timetable\/holidays|admins|activity)(\?|$)/, () => down);
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/admindashborad/timetable');
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(2);
    await snap(page, `admin-timetable-failed-${width}`);
    await expectAccessible(page, `the timetable that did not load at ${width} px`);
    await page.goto('/admin/admins');
    await expect(page.getByText('Could not load the administrators', { exact: true })).toBeVisible();
    await expectAccessible(page, `the administrators that did not load at ${width} px`);
    await page.goto('/admin/activity');
    await expect(page.getByText('Could not load the activity', { exact: true })).toBeVisible();
    await snap(page, `admin-activity-failed-${width}`);
    await expectAccessible(page, `the activity that did not load at ${width} px`);
  }
  down = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('Could not load the activity', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
});

test('the assessments list that did not load, then Try again', async ({ adminPage: page }) => {
  let down = true;
  await failWhile(page, /\/api\/assessments(\?|$)/, () => down);
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/admin/assessments');
    await expect(page.getByRole('status').filter({ hasText: 'Error loading data' })).toBeVisible();
    await snap(page, `assessments-failed-${width}`);
    await expectAccessible(page, `the assessments list that did not load at ${width} px`);
  }
  down = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New assessment' })).toBeVisible();
  await expect(page.getByText('Error loading data', { exact: true })).toHaveCount(0);
});

test('the students table that did not load, then Try again', async ({ adminPage: page }) => {
  let down = true;
  await failWhile(page, /\/api\/users(\?|$)/, () => down);
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/admindashborad');
    await expect(page.getByRole('status').filter({ hasText: 'The students could not be loaded.' })).toBeVisible();
    await snap(page, `students-failed-${width}`);
    await expectAccessible(page, `the students table that did not load at ${width} px`);
  }
  down = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /students? found/ })).toBeAttached();
});
