// The home page, the header and footer, routing (case-insensitive paths, the
// 404 page, the /admindashboard alias) and the Back button.

import { expect, test, untilReactTakesOver } from './fixtures.ts';

test.describe('home page', () => {
  test('shows the heading and the three cards', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Guided Learning for Grades 1-9' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Student Registration' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Already Registered? Log In to Your Account' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Access for Managing Students' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register Now' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Student Login' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin Login' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/home.png', fullPage: true });
  });

  test('"Register Now" opens the registration form', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Register Now' }).click();
    await expect(page).toHaveURL(/\/Registeruser$/);
    await expect(page.getByLabel('Student Full Name')).toBeVisible();
  });

  test('"Student Login" opens the student login', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Student Login' }).click();
    await expect(page).toHaveURL(/\/studentlogin$/);
    await expect(page.getByRole('heading', { name: 'NICE TO SEE YOU' })).toBeVisible();
  });

  test('"Admin Login" opens the admin login', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin Login' }).click();
    await expect(page).toHaveURL(/\/adminlogin$/);
    await expect(page.getByRole('heading', { name: 'Manage Student Records' })).toBeVisible();
  });
});

test.describe('header and footer', () => {
  test('"Enroll Now" opens the registration form', async ({ page }) => {
    await page.goto('/studentlogin');
    await page.getByRole('banner').getByRole('link', { name: 'Enroll Now' }).click();
    await expect(page).toHaveURL(/\/Registeruser$/);
    await expect(page.getByLabel('Student Full Name')).toBeVisible();
  });

  test('the logo goes to /Home', async ({ page }) => {
    await page.goto('/adminlogin');
    const logo = page.getByRole('banner').getByRole('link', { name: /home$/i });
    await expect(logo).toHaveAttribute('href', '/Home');
    await logo.click();
    await expect(page).toHaveURL(/\/Home$/);
    await expect(page.getByRole('heading', { name: 'Guided Learning for Grades 1-9' })).toBeVisible();
  });

  test('the footer carries the current year and "All rights reserved"', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(String(new Date().getFullYear()));
    await expect(footer).toContainText('All rights reserved');
  });
});

test.describe('routing', () => {
  test('routes match case-insensitively', async ({ page }) => {
    await page.goto('/Home');
    await expect(page.getByRole('heading', { name: 'Guided Learning for Grades 1-9' })).toBeVisible();
    await page.goto('/Registeruser');
    await expect(page.getByLabel('Student Full Name')).toBeVisible();
    await page.goto('/STUDENTLOGIN');
    await expect(page.getByRole('heading', { name: 'NICE TO SEE YOU' })).toBeVisible();
    await page.goto('/ForgotPassword');
    await expect(page.getByLabel('Email Address')).toBeVisible();
  });

  test('an unknown path shows "Page not found" and its Home button goes home', async ({ page }) => {
    const response = await page.goto('/no-such-page-here');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/home$/i);
    await expect(page.getByRole('heading', { name: 'Guided Learning for Grades 1-9' })).toBeVisible();
  });

  test('/admindashboard redirects to /admindashborad, which without a token goes to /adminlogin', async ({ page }) => {
    await page.goto('/admindashboard');
    await expect(page).toHaveURL(/\/adminlogin$/);
    await expect(page.getByRole('heading', { name: 'Manage Student Records' })).toBeVisible();
  });

  test('the Back button goes one step back', async ({ page }) => {
    await page.goto('/');
    // Clicked earlier, "Student Login" would load its page afresh, with no step back in the site.
    await untilReactTakesOver(page);
    await page.getByRole('link', { name: 'Student Login' }).click();
    await expect(page).toHaveURL(/\/studentlogin$/);
    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await expect(page).toHaveURL(/\/forgotpassword$/);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/studentlogin$/);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Guided Learning for Grades 1-9' })).toBeVisible();
  });
});
