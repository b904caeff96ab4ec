// The public pages arrive as HTML (client/scripts/prerender.ts): readable
// before any script runs, taken over by React without a mismatch, and a form
// filled in as soon as it is shown keeps what was typed.

import { expect, test } from './fixtures.ts';

test.describe('pre-rendered pages', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the home page shows its heading, cards and links', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: 'Guided Learning for Grades 1-9' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Register Now' })).toHaveAttribute('href', '/Registeruser');
      await expect(page).toHaveTitle('Online tuition for grades 1-9 | Guided Learning Tuition Centre');
    });

    test('the registration and login forms are shown, under a request to enable JavaScript', async ({ page }) => {
      await page.goto('/Registeruser');
      await expect(page.getByRole('heading', { name: /Register to Begin Your Learning Journey/ })).toBeVisible();
      // Playwright's text and role locators skip <noscript>, hence the class.
      const noscript = page.locator('.noscript-banner');
      await expect(noscript).toBeVisible();
      await expect(noscript).toHaveText('Please enable JavaScript to use the Guided Learning Tuition Centre site.');
      await expect(page.getByLabel('Student Full Name')).toBeVisible();
      await page.goto('/studentlogin');
      await expect(page.getByRole('heading', { name: 'NICE TO SEE YOU' })).toBeVisible();
      await expect(page.getByLabel('Email ID or Mobile Number')).toBeVisible();
    });
  });

  test('React takes the pages over without errors, and the date of birth becomes today', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    for (const route of ['/', '/registeruser', '/studentlogin', '/forgotpassword', '/adminlogin', '/thank-you']) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
    }
    await page.goto('/registeruser');
    const today = new Date();
    const ddmmyyyy = [today.getDate(), today.getMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/');
    await expect(page.getByRole('group', { name: 'Date of Birth' })).toContainText(
      `${ddmmyyyy}/${today.getFullYear()}`,
    );
    expect(problems).toEqual([]);
  });

  test('the pre-rendered styles are the ones the browser renders', async ({ page, request }) => {
    // The Emotion class names in the HTML must be the browser's own: otherwise React keeps
    // mismatched class names and Emotion compiles and inserts every style a second time.
    const html = await (await request.get('/studentlogin')).text();
    const emotionClass = (tag: RegExp) => tag.exec(html)?.[1]?.match(/\bcss-[\w-]+/)?.[0];
    const heading = emotionClass(/<h1 class="([^"]*)"/);
    const button = emotionClass(/<button class="([^"]*)"[^>]* type="submit"/);
    expect(heading).toMatch(/^css-\w+$/);
    expect(button).toMatch(/^css-\w+$/);
    // Reached from the home page, the login page is drawn in the browser, not taken over.
    await page.goto('/');
    await page.getByRole('link', { name: 'Student Login' }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveClass(new RegExp(`\\b${heading}\\b`));
    await expect(page.getByRole('button', { name: 'Login' })).toHaveClass(new RegExp(`\\b${button}\\b`));
  });

  test('what is typed into a form as soon as it is shown is kept', async ({ page }) => {
    // The scripts arrive late, as on a slow phone connection.
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/studentlogin', { waitUntil: 'commit' });
    await page.getByLabel('Email ID or Mobile Number').fill('nobody-here@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Invalid Email ID/Mobile Number or Password').first()).toBeVisible();
    await expect(page.getByLabel('Email ID or Mobile Number')).toHaveValue('nobody-here@example.com');
  });
});
