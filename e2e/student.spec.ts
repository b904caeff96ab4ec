// The student's side: login by e-mail or mobile, the dashboard, logout, the
// session redirects, and the forgot-password flow with a code sent by e-mail.

import {
  apiCall,
  createStudent,
  expect,
  expectToast,
  latestCode,
  outboxMark,
  sessionItem,
  snap,
  test,
} from './fixtures.ts';
import { wrongCode } from '../testing/codes.ts';
import type { NewStudent } from '../testing/students.ts';
import type { Page } from '@playwright/test';

async function login(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/studentlogin');
  await expect(page.getByRole('heading', { name: 'NICE TO SEE YOU' })).toBeVisible();
  await page.getByLabel('Email ID or Mobile Number').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function expectDashboard(page: Page, student: NewStudent): Promise<void> {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Student Dashboard' })).toBeVisible();
  await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
  const profile = page.getByRole('region', { name: 'Your Profile' });
  await expect(profile).toBeVisible();
  const expected: Array<[string, string]> = [
    ['Full Name', student.fullname],
    ['Email', student.email],
    ['Mobile', student.mobile],
    ['Board', student.board],
    ['Grade', '4th'],
    ['Gender', student.gender],
  ];
  for (const [label, value] of expected) {
    const term = profile.locator('dt', { hasText: new RegExp(`^${label}$`) });
    await expect(term).toHaveCount(1);
    await expect(term.locator('xpath=following-sibling::dd[1]')).toHaveText(value);
  }
}

test.describe('student login and dashboard', () => {
  test('logs in by e-mail and shows the profile', async ({ page, student }) => {
    await login(page, student.email, student.password);
    await expectToast(page, 'Login Successful');
    await expectDashboard(page, student);
    await snap(page, 'student-dashboard');
  });

  test('logs in by mobile number, then logs out', async ({ page, request }) => {
    const student = await createStudent(request, { gender: 'Daughter', board: 'State' });
    await login(page, student.mobile, student.password);
    await expectToast(page, 'Login Successful');
    await expectDashboard(page, student);
    const stored = JSON.parse((await sessionItem(page, 'userData')) ?? 'null') as { tokenStudent?: unknown } | null;
    const token = stored?.tokenStudent;
    expect(typeof token).toBe('string');
    if (typeof token !== 'string') throw new Error('no student token in session storage');

    await page.getByRole('button', { name: 'Logout' }).click();
    await expectToast(page, 'Logged out successfully');
    await expect(page).toHaveURL(/\/studentlogin$/);
    expect(await sessionItem(page, 'userData')).toBeNull();
    // The session is revoked on the server too.
    const me = await apiCall(request, 'GET', '/api/students/me', undefined, token);
    expect(me.status).toBe(401);
    // And the dashboard is closed again.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/studentlogin$/);
  });

  test('a logout reaches a duplicate of the tab, which holds a copy of the session', async ({ page, student }) => {
    await login(page, student.email, student.password);
    await expectDashboard(page, student);
    // A duplicated tab starts with a copy of the tab's sessionStorage.
    const copy = await sessionItem(page, 'userData');
    const duplicate = await page.context().newPage();
    await duplicate.goto('/studentlogin');
    await duplicate.evaluate(`sessionStorage.setItem('userData', ${JSON.stringify(copy)})`);
    await duplicate.goto('/dashboard');
    await expectDashboard(duplicate, student);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/studentlogin$/);
    // The duplicate lets the session go at once, without a call of its own.
    await expect(duplicate).toHaveURL(/\/studentlogin$/);
    await expect(duplicate.getByText(`Welcome, ${student.fullname}`)).toHaveCount(0);
    expect(await sessionItem(duplicate, 'userData')).toBeNull();
    await duplicate.close();
  });

  test('asks for the identifier, then the password', async ({ page }) => {
    await page.goto('/studentlogin');
    const loginButton = page.getByRole('button', { name: 'Login' });
    await loginButton.click();
    await expectToast(page, 'Please enter Email ID or Mobile Number');
    await page.getByLabel('Email ID or Mobile Number').fill('   ');
    await page.getByLabel('Password', { exact: true }).fill('something');
    await loginButton.click();
    await expectToast(page, 'Please enter Email ID or Mobile Number');
    await page.getByLabel('Email ID or Mobile Number').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('');
    await loginButton.click();
    await expectToast(page, 'Please enter Password');
    await expect(page).toHaveURL(/\/studentlogin$/);
  });

  test("shows the server's error for a wrong password", async ({ page, student }) => {
    await login(page, student.email, `${student.password}-wrong`);
    await expectToast(page, 'Invalid Email ID/Mobile Number or Password');
    await expect(page).toHaveURL(/\/studentlogin$/);
    expect(await sessionItem(page, 'userData')).toBeNull();
  });

  test('the login page toggles the password visibility', async ({ page }) => {
    await page.goto('/studentlogin');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('Secret-123');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('/dashboard without a session goes to /studentlogin', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/studentlogin$/);
    await expect(page.getByRole('heading', { name: 'NICE TO SEE YOU' })).toBeVisible();
  });

  test('an expired session goes back to the login', async ({ page }) => {
    await page.goto('/studentlogin');
    await page.evaluate(
      `window.sessionStorage.setItem('userData', JSON.stringify({ tokenStudent: 'r:not-a-real-token' }))`,
    );
    await page.goto('/dashboard');
    await expectToast(page, 'Session expired, please login again');
    await expect(page).toHaveURL(/\/studentlogin$/);
    expect(await sessionItem(page, 'userData')).toBeNull();
  });

  test('/studentlogin with a session goes to /dashboard', async ({ page, student }) => {
    await login(page, student.email, student.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/studentlogin');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
  });

  test('the login page links to forgot password and registration', async ({ page }) => {
    await page.goto('/studentlogin');
    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await expect(page).toHaveURL(/\/forgotpassword$/);
    await page.goto('/studentlogin');
    await page.getByRole('link', { name: 'Register now' }).click();
    await expect(page).toHaveURL(/\/Registeruser$/);
  });
});

test.describe('forgot password', () => {
  test('asks for the e-mail and refuses an unknown one', async ({ page }) => {
    await page.goto('/forgotpassword');
    const sendOtp = page.getByRole('button', { name: 'Send OTP' });
    await sendOtp.click();
    await expectToast(page, 'Please enter Email Address');
    await page.getByLabel('Email Address').fill(`nobody.${Date.now()}@example.com`);
    await sendOtp.click();
    await expectToast(page, 'Email does not exist');
    await expect(page.getByLabel('OTP')).toHaveCount(0);
  });

  test('resets the password with the code sent by e-mail', async ({ page, student }) => {
    const newPassword = `New-${student.password}`;
    await page.goto('/forgotpassword');
    const email = page.getByLabel('Email Address');
    await email.fill(student.email);
    const mark = outboxMark();
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await expectToast(page, 'OTP sent successfully');

    // Step 2: the e-mail is locked; OTP and the new password appear.
    await expect(page.getByLabel('OTP')).toBeVisible();
    await expect(page.getByLabel('OTP')).toBeFocused();
    await expect(email).toBeDisabled();
    await expect(email).toHaveValue(student.email);
    await expect(page.getByLabel('New Password', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Confirm New Password')).toBeVisible();
    const reset = page.getByRole('button', { name: 'Verify & Reset Password' });
    await expect(reset).toBeVisible();
    const code = await latestCode(student.email, mark);
    await snap(page, 'forgot-password-step-2');

    await page.getByLabel('OTP').fill(code);
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(`${newPassword}-x`);
    await reset.click();
    await expectToast(page, 'Passwords do not match');
    await expect(page).toHaveURL(/\/forgotpassword$/);

    // A wrong code is refused and the password stays.
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByLabel('OTP').fill(wrongCode(code));
    await reset.click();
    await expectToast(page, 'Invalid OTP. Please try again.');
    await expect(page).toHaveURL(/\/forgotpassword$/);

    await page.getByLabel('OTP').fill(code);
    await reset.click();
    await expectToast(page, 'Password reset successful');
    await expect(page).toHaveURL(/\/studentlogin$/);

    // The old password no longer works; the new one does.
    await page.getByLabel('Email ID or Mobile Number').fill(student.email);
    await page.getByLabel('Password', { exact: true }).fill(student.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast(page, 'Invalid Email ID/Mobile Number or Password');
    await expect(page).toHaveURL(/\/studentlogin$/);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast(page, 'Login Successful');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome, ${student.fullname}`)).toBeVisible();
  });
});
