// Issue 13, the items after the first round: a student changes their password,
// the header names who is signed in, toasts keep clear of the registration's
// last controls on phones, the date-of-birth calendar opens on a child's birth
// year, the admin login's leftovers, and axe on the admin tools' screens.

import type { Locator, Page } from '@playwright/test';
import {
  admin,
  adminToken,
  apiCall,
  createStudent,
  expect,
  expectAccessible,
  expectToast,
  fillRegistration,
  logInStudent,
  sessionItem,
  snap,
  studentToken,
  test,
  toasts,
  openDobCalendar,
  waitForRegistrationForm,
} from './fixtures.ts';
import { newStudent } from '../testing/students.ts';

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'element on screen').not.toBeNull();
  return box!;
}

for (const [width, height] of [
  [320, 568],
  [320, 640],
  [390, 844],
  [390, 664],
] as const) {
  test(`at ${width}×${height} px the "OTP sent" toast sits bottom centre, clear of the terms and "Verify & Register"`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/registeruser');
    await waitForRegistrationForm(page);
    await fillRegistration(page, newStudent());
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await expectToast(page, 'OTP sent successfully');
    const toast = toasts(page).first();
    const terms = page.getByLabel('I agree with terms and conditions');
    const verify = page.getByRole('button', { name: 'Verify & Register' });
    await expect(page.getByLabel('OTP')).toBeFocused();
    // Checked through the toast's whole life, while it may still be sliding in.
    for (let elapsed = 0; elapsed < 4_500; elapsed += 500) {
      // Gone (its five seconds run out sooner on a busy machine): nothing left to cover anything.
      const toastBox = (await toast.count()) ? await toast.boundingBox({ timeout: 1_000 }).catch(() => null) : null;
      // The first look must find it (expectToast has just seen it), or nothing below is checked.
      if (elapsed === 0) expect(toastBox, 'the toast, at its first look').not.toBeNull();
      if (!toastBox) break;
      // Centred: as far from the left edge as from the right.
      expect(Math.abs(toastBox.x - (width - toastBox.x - toastBox.width))).toBeLessThanOrEqual(2);
      expect(toastBox.x).toBeGreaterThanOrEqual(4);
      expect(overlaps(toastBox, await boxOf(terms)), 'toast over the terms checkbox').toBe(false);
      expect(overlaps(toastBox, await boxOf(verify)), 'toast over Verify & Register').toBe(false);
      await expect(verify).toBeInViewport();
      if (elapsed === 0) await page.screenshot({ path: test.info().outputPath(`otp-toast-${width}x${height}.png`) });
      await page.waitForTimeout(500);
    }
  });
}

test('the date-of-birth calendar opens on the year view at a child’s birth year, with no future year', async ({
  page,
}) => {
  await page.goto('/registeruser');
  await waitForRegistrationForm(page);
  const field = page.locator('input[name="dob"]');
  // The seed's default stays: today's date.
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  await expect(field).toHaveValue(`${pad(now.getDate())}/${pad(now.getMonth() + 1)}/${now.getFullYear()}`);
  const calendar = await openDobCalendar(page);
  const childYear = now.getFullYear() - 10;
  const year = calendar.getByRole('radio', { name: String(childYear) });
  await expect(year).toBeFocused();
  await expect(year).toBeInViewport();
  await expect(calendar.getByRole('radio', { name: String(now.getFullYear() + 1) })).toHaveCount(0);
  await expect(calendar.getByRole('radio', { checked: true })).toHaveCount(0);
  await page.waitForTimeout(400);
  await page.screenshot({ path: test.info().outputPath('calendar-year-view.png') });
  await year.click();
  await calendar.getByRole('radio', { name: /^(June|Jun)$/ }).click();
  await calendar.getByRole('gridcell', { name: '15' }).click();
  await expect(calendar).toBeHidden();
  await expect(field).toHaveValue(`15/06/${childYear}`);
  // Read out as the field shows it, day first: not "Jun 15, 2016".
  await expect(page.getByRole('button', { name: `Choose date, selected date is 15 Jun ${childYear}` })).toBeVisible();
});

// A touch screen opens the calendar as a dialog with a heading: a phone (320 px) and a tablet (1280 px).
for (const width of [320, 1280]) {
  test.describe(`on a touch screen ${width} px wide`, () => {
    test.use({ viewport: { width, height: width === 320 ? 640 : 900 }, hasTouch: true, isMobile: true });

    test('the calendar’s heading asks for a date (the field’s default of today is no birth date), then names the day picked', async ({
      page,
    }) => {
      await page.goto('/registeruser');
      const calendar = await openDobCalendar(page);
      // A phone's calendar is a full dialog with a heading (MUI X's toolbar), not "––".
      await expect(calendar.getByText('Pick a date', { exact: true })).toBeVisible();
      await expect(calendar.getByText('––')).toHaveCount(0);
      await expectAccessible(page, `the calendar of a touch screen at ${width} px`);
      await page.screenshot({ path: test.info().outputPath(`calendar-touch-${width}.png`) });
      const childYear = new Date().getFullYear() - 10;
      await calendar.getByRole('radio', { name: String(childYear) }).click();
      await calendar.getByRole('radio', { name: /^(June|Jun)$/ }).click();
      await calendar.getByRole('gridcell', { name: '15' }).click();
      const weekday = new Date(Date.UTC(childYear, 5, 15)).toLocaleDateString('en-GB', {
        weekday: 'short',
        timeZone: 'UTC',
      });
      await expect(calendar.getByText(`${weekday}, 15 Jun`, { exact: true })).toBeVisible();
      await expect(calendar.getByText('Pick a date')).toHaveCount(0);
      await calendar.getByRole('button', { name: 'OK' }).click();
      await expect(calendar).toBeHidden();
      await expect(page.locator('input[name="dob"]')).toHaveValue(`15/06/${childYear}`);
    });
  });
}

// The address changes before a page's code has arrived; the page is there once its heading is.
const studentDashboardHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Student Dashboard' });
const adminDashboardHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'All Registered Students - Enrollment Data' });

async function loginStudentInBrowser(page: Page, identifier: string, password: string): Promise<void> {
  await logInStudent(page, identifier, password);
  await expect(studentDashboardHeading(page)).toBeVisible();
}

async function loginAdminInBrowser(page: Page): Promise<void> {
  await page.goto('/adminlogin');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/admindashborad$/);
  await expect(adminDashboardHeading(page)).toBeVisible();
}

test.describe('a student changes their password on the dashboard', () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: wrong current password, broken rules, then success ends the other sessions`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const student = await createStudent(request);
      const elsewhere = await studentToken(request, student.email, student.password);
      await loginStudentInBrowser(page, student.email, student.password);

      const section = page.getByRole('region', { name: 'Change password' });
      const current = section.getByLabel('Current Password');
      const next = section.getByLabel('New Password', { exact: true });
      const confirm = section.getByLabel('Confirm New Password');
      const submit = section.getByRole('button', { name: 'Change password' });
      // The rules show before anything is sent.
      await expect(next).toHaveAccessibleDescription('At least 8 characters, at most 64.');

      await current.fill(`${student.password}-wrong`);
      await next.fill('Brand-new-pass-7');
      await confirm.fill('Brand-new-pass-7');
      await submit.click();
      await expect(current).toHaveAttribute('aria-invalid', 'true');
      await expect(current).toHaveAccessibleDescription('The current password is wrong');
      await expect(current).toBeFocused();

      await current.fill(student.password);
      await next.fill('short');
      await submit.click();
      await expect(next).toHaveAttribute('aria-invalid', 'true');
      await expect(next).toHaveAccessibleDescription('Password must be at least 8 characters');

      await next.fill('Brand-new-pass-7');
      await confirm.fill('Brand-new-pass-8');
      await submit.click();
      await expect(confirm).toHaveAccessibleDescription('Passwords do not match');
      await snap(page, `change-password-error-${width}`);

      await confirm.fill('Brand-new-pass-7');
      await submit.click();
      await expectToast(page, 'Password changed; your other sessions have ended');
      await expect(current).toHaveValue('');
      // The button kept the focus through the change (inert while busy, never disabled).
      await expect(submit).toBeFocused();
      await section.screenshot({ path: test.info().outputPath(`change-password-${width}.png`) });

      // This browser stays logged in, on a new session; the other session has ended.
      const stored = JSON.parse((await sessionItem(page, 'userData'))!) as { tokenStudent: string };
      expect((await apiCall(request, 'GET', '/api/students/me', undefined, stored.tokenStudent)).status).toBe(200);
      expect((await apiCall(request, 'GET', '/api/students/me', undefined, elsewhere)).status).toBe(401);
      await page.reload();
      await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
      // The old password no longer logs in; the new one does.
      const old = await apiCall(request, 'POST', '/api/student/login', {
        identifier: student.email,
        password: student.password,
      });
      expect(old.status).toBe(401);
      await studentToken(request, student.email, 'Brand-new-pass-7');
    });
  }
});

/** On a phone the account's links are behind a button with the name: opens it. */
async function openAccount(page: Page, width: number, name: string): Promise<void> {
  if (width >= 600) return;
  const toggle = page.getByRole('banner').getByRole('button', { name });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

test.describe('the header shows who is signed in', () => {
  for (const width of [320, 390, 1280]) {
    test(`at ${width} px: a student and an admin, with their dashboard and Log out`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 800 });
      const banner = page.getByRole('banner');
      const student = await createStudent(request);
      await loginStudentInBrowser(page, student.email, student.password);
      await expect(banner.getByText(student.fullname).filter({ visible: true }).first()).toBeVisible();
      // "Enroll Now" stays (a brother or sister): in the row when wide, behind the name on a phone.
      const enroll = banner.getByRole('link', { name: 'Enroll Now' });
      await expect(enroll).toBeVisible({ visible: width >= 600 });
      await page.goto('/');
      await expect(enroll).toBeVisible({ visible: width >= 600 });
      await openAccount(page, width, student.fullname);
      await expect(banner.getByText(`Signed in as ${student.fullname}`)).toBeVisible();
      await expect(enroll).toBeVisible();
      await expect(enroll).toHaveAttribute('href', '/Registeruser');
      await page.screenshot({ path: test.info().outputPath(`header-student-${width}.png`) });
      // The name is a button on phones only; wider, the panel shows it as text.
      await expect(banner.getByRole('button', { name: student.fullname })).toBeVisible({ visible: width < 600 });
      if (width < 600) {
        // Escape closes it and gives focus back to the button.
        await page.keyboard.press('Escape');
        await expect(banner.getByRole('link', { name: 'My dashboard' })).toBeHidden();
        await expect(banner.getByRole('button', { name: student.fullname })).toBeFocused();
        await openAccount(page, width, student.fullname);
      }
      await banner.getByRole('link', { name: 'My dashboard' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      // The account panel belongs to a page: opened while this one loads, it closes when it arrives.
      await expect(studentDashboardHeading(page)).toBeVisible();
      await openAccount(page, width, student.fullname);
      await banner.getByRole('button', { name: 'Log out' }).click();
      await expectToast(page, 'Logged out successfully');
      await expect(page).toHaveURL(/\/studentlogin$/);
      await expect(banner.getByRole('link', { name: 'Enroll Now' })).toBeVisible();
      expect(await sessionItem(page, 'userData')).toBeNull();

      await loginAdminInBrowser(page);
      await expect(enroll).toBeVisible({ visible: width >= 600 });
      await openAccount(page, width, admin.name);
      await expect(banner.getByText(`Signed in as ${admin.name}`)).toBeVisible();
      await expect(enroll).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`header-admin-${width}.png`) });
      await expectAccessible(page, 'the header with the account open', 'header');
      await page.goto('/registeruser');
      await openAccount(page, width, admin.name);
      await banner.getByRole('link', { name: 'Admin dashboard' }).click();
      await expect(page).toHaveURL(/\/admindashborad$/);
      await expect(adminDashboardHeading(page)).toBeVisible();
      await openAccount(page, width, admin.name);
      await banner.getByRole('button', { name: 'Log out' }).click();
      await expectToast(page, 'Logged out successfully');
      await expect(page).toHaveURL(/\/adminlogin$/);
      await expect(banner.getByRole('link', { name: 'Enroll Now' })).toBeVisible();
      // The page never scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    });
  }
});

test.describe('the admin login', () => {
  test('a mistyped attempt leaves no red toast on the dashboard after the right one', async ({ page }) => {
    await page.goto('/adminlogin');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(`${admin.password}-typo`);
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast(page, 'Invalid email or password');
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/admindashborad$/);
    await expect(toasts(page).filter({ hasText: 'Invalid email or password' })).toHaveCount(0);
    await expect(page.getByText('Invalid email or password')).toHaveCount(0);
  });

  test('a student token on the admin page says the role is wrong, not that the session expired', async ({
    page,
    request,
  }) => {
    const student = await createStudent(request);
    const token = await studentToken(request, student.email, student.password);
    await page.goto('/adminlogin');
    await page.evaluate(`window.localStorage.setItem('adminToken', ${JSON.stringify(token)})`);
    await page.goto('/admindashborad');
    await expectToast(page, 'Only administrators can do this');
    await expect(page).toHaveURL(/\/adminlogin$/);
    await expect(page.getByText('Session expired, please login again')).toHaveCount(0);
  });

  test("an empty password or e-mail gets the form's own words, never Parse's", async ({ page }) => {
    await page.goto('/adminlogin');
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'Login' }).click();
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toHaveAccessibleDescription('Password is required');
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Email is required');
    await expect(page.getByText(/password is required\./)).toHaveCount(0);
  });
});

// One test per part: each part runs several axe passes, and one test for all of them came
// within seconds of the test timeout on a busy machine.
for (const width of [320, 1280]) {
  test(`at ${width} px the admin tools' screens have no serious axe violation`, async ({ page, request }) => {
    // Four pages and states, each with an axe pass: more than the default minute on a slow machine.
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width === 320 ? 640 : 900 });
    await page.goto('/admin/accept-invite?email=someone%40example.com');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'accept invitation');

    // An invitation not yet accepted, listed with its Withdraw button.
    const invited = `e2e-invited-${width}-${Date.now()}@example.com`;
    const invitation = await apiCall(
      request,
      'POST',
      '/api/admins',
      { email: invited, name: 'Invited' },
      await adminToken(request),
    );
    expect(invitation.status).toBe(200);
    await loginAdminInBrowser(page);
    for (const path of ['/admin/activity', '/admin/admins']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0);
      await snap(page, `${path.split('/').pop()}-${width}`);
      await expectAccessible(page, path);
    }
    // The site's confirmation dialog (also deactivation, holidays, classes, the calendar link).
    await page.getByRole('button', { name: `Withdraw the invitation of ${invited}` }).click();
    const asked = page.getByRole('dialog', { name: 'Withdraw this invitation?' });
    await expect(asked.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await snap(page, `confirm-dialog-${width}`);
    await expectAccessible(page, 'the confirmation dialog');
    await asked.getByRole('button', { name: 'Cancel' }).click();
    // The invitation form with its errors under the fields.
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByLabel(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    await snap(page, `invite-error-${width}`);
    await expectAccessible(page, 'the invitation form with an error');
    // The invitation goes again: the tests that follow do not find it in the list.
    const token = await adminToken(request);
    const listed = (await apiCall(request, 'GET', '/api/admins', undefined, token)).body as {
      objectId: string;
      email: string;
    }[];
    const mine = listed.find((a) => a.email === invited)!;
    expect(
      (await apiCall(request, 'DELETE', `/api/admins/invitations/${mine.objectId}`, undefined, token)).status,
    ).toBe(200);
  });

  test(`at ${width} px the student's dashboard and password form have no serious axe violation`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: width === 320 ? 640 : 900 });
    const student = await createStudent(request);
    await loginStudentInBrowser(page, student.email, student.password);
    await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
    await expectAccessible(page, 'student dashboard with the password form');
    const section = page.getByRole('region', { name: 'Change password' });
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByLabel('Current Password')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'the password form with an error');
  });
}
