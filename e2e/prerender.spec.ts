// The public pages arrive as HTML (client/scripts/prerender.ts): readable
// before any script runs, taken over by React without a mismatch, and a form
// filled in as soon as it is shown keeps what was typed.

import type { Page, Route as PlaywrightRoute } from '@playwright/test';
import { newStudent } from '../testing/students.ts';
import { expect, fetchFromSite, gradeLabel, isoToDmy, test, untilReactTakesOver } from './fixtures.ts';

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
    // Each with the address it happened at, to tell which page a rare failure came from.
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.location().url}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    for (const route of ['/', '/registeruser', '/studentlogin', '/forgotpassword', '/adminlogin', '/thank-you']) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
    }
    await page.goto('/registeruser');
    const today = new Date();
    const ddmmyyyy = [today.getDate(), today.getMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/');
    // Today, in the pre-rendered page's stand-in (the picker loads when the parent starts).
    await expect(page.locator('input[name="dob"]')).toHaveValue(`${ddmmyyyy}/${today.getFullYear()}`);
    // Its calendar button loads the picker and opens the calendar, without an error either.
    await page.getByRole('button', { name: 'Choose date' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("the site's script waits for the page to be read when it comes first (from the cache)", async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    // The page is read up to a slow script just before its root, while the site's own
    // (async) script, already fetched, runs: as it does on a slow connection from the cache.
    let releaseParser!: () => void;
    const parserHeld = new Promise<void>((resolve) => (releaseParser = resolve));
    await page.route('**/hold-the-parser.js', async (route) => {
      await parserHeld;
      await route.fulfill({ contentType: 'text/javascript', body: '' });
    });
    await page.route(/\/thank-you$/, async (route) => {
      const response = await fetchFromSite(route);
      const html = (await response.text()).replace(
        '<div id="root">',
        '<script src="/hold-the-parser.js"></script><div id="root">',
      );
      await route.fulfill({ response, body: html });
    });
    // The site's script has run once it asks for the page's own code, or once it has failed.
    const ran = Promise.race([
      page.waitForRequest(/\/assets\/thank-you-page-[^/]+\.js$/),
      page.waitForEvent('pageerror'),
    ]);
    const opened = page.goto('/thank-you');
    await ran;
    releaseParser();
    await opened;
    await untilReactTakesOver(page);
    await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible();
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

  test('what is typed into the registration form before its code arrives is kept, and sent', async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto('/registeruser', { waitUntil: 'domcontentloaded' });
    const send = page.getByRole('button', { name: 'Send OTP' });
    // The pre-rendered page, no script has run: the button waits for the code, the fields do not.
    await expect(send).toBeDisabled();
    const student = newStudent({ gender: 'Daughter', grade: 6, board: 'ICSE' });
    await page.getByLabel('Student Full Name').fill(student.fullname);
    await page.getByLabel('Email').fill(student.email);
    await page.getByLabel('Mobile').fill(student.mobile);
    await page.getByLabel('Password', { exact: true }).fill(student.password);
    await page.getByLabel('Confirm Password').fill(student.password);
    await page.getByLabel('Date of Birth').fill(isoToDmy(student.dob));
    await page.getByRole('radio', { name: 'Daughter' }).check();
    await page.getByLabel('Grade').selectOption({ label: gradeLabel(student.grade) });
    await page.getByLabel('Board').selectOption(student.board);
    await page.getByRole('checkbox', { name: /I agree/ }).check();
    expect(release.held()).toBeGreaterThan(0);

    await release.all();
    await expect(send).toBeEnabled();
    await expect(page.getByLabel('Student Full Name')).toHaveValue(student.fullname);
    await expect(page.getByLabel('Email')).toHaveValue(student.email);
    await expect(page.getByLabel('Mobile')).toHaveValue(student.mobile);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue(student.password);
    await expect(page.getByLabel('Confirm Password')).toHaveValue(student.password);
    // The date picker replaces the plain field once loaded, with the date typed.
    await expect(page.getByRole('group', { name: 'Date of Birth' })).toBeVisible();
    await expect(page.locator('input[name="dob"]')).toHaveValue(isoToDmy(student.dob));
    await expect(page.getByRole('radio', { name: 'Daughter' })).toBeChecked();
    await expect(page.getByLabel('Grade')).toHaveValue(String(student.grade));
    await expect(page.getByLabel('Board')).toHaveValue(student.board);
    await expect(page.getByRole('checkbox', { name: /I agree/ })).toBeChecked();
    // A later change keeps the rest: the form's state has every value, not just the screen.
    await page.getByLabel('Student Full Name').press('End');
    await page.getByLabel('Student Full Name').pressSequentially(' Jr');
    await expect(page.getByLabel('Email')).toHaveValue(student.email);

    // Every rule passes (terms, gender, grade, board and date included), so the code is sent.
    await send.click();
    await expect(page.getByText(`Enter the 6-digit code we sent to ${student.mobile}`)).toBeVisible();
    await expect(page.getByLabel('Student Full Name')).toHaveValue(`${student.fullname} Jr`);
  });

  test('what is typed into the login form before its code arrives is kept, and sent', async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto('/studentlogin', { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
    await page.getByLabel('Email ID or Mobile Number').fill('nobody-here@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-1');
    await release.all();
    await page.getByRole('button', { name: 'Login' }).click();
    // Not "Please enter ...": both values reached the server.
    await expect(page.getByText('Invalid Email ID/Mobile Number or Password').first()).toBeVisible();
    await expect(page.getByLabel('Email ID or Mobile Number')).toHaveValue('nobody-here@example.com');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('Wrong-pass-1');
  });
});

/**
 * Holds back every script of the site, as a slow phone connection would, until
 * `all()` lets them through (and every later one).
 */
async function holdScripts(page: Page) {
  const held: PlaywrightRoute[] = [];
  let released = false;
  await page.route(/\/assets\/[^/]+\.js$/, (route) => (released ? route.continue() : void held.push(route)));
  return {
    held: () => held.length,
    all: async () => {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}
