// What a parent, a student or an admin sees and can do with the keyboard (issue 13):
// axe-core on every screen and state at 320 and 1280 px, the calendar above the
// form, visible focus rings, the terms and privacy pages, and the admin's editor.

import {
  expect,
  expectAccessible,
  expectToast,
  fillRegistration,
  searchStudents,
  site,
  snap,
  studentToken,
  test,
  toasts,
  openDobCalendar,
} from './fixtures.ts';
import { newStudent } from '../testing/students.ts';

const WIDTHS = [320, 1280] as const;

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 320 ? 640 : 900 } });

    // One test per page: eight axe passes in one test came within seconds of its timeout.
    for (const path of [
      '/',
      '/registeruser',
      '/studentlogin',
      '/forgotpassword',
      '/adminlogin',
      '/thank-you',
      '/terms',
      '/privacy',
    ]) {
      test(`the public page ${path} has no serious axe violation`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // Taken over by its code: a form's button is disabled until then, and axe would
        // see it change from grey to blue halfway through.
        await expect(page.locator('form button[type="submit"][disabled]')).toHaveCount(0);
        await expectAccessible(page, path);
      });
    }

    test('registration: errors, the open calendar and the OTP stage', async ({ page }) => {
      await page.goto('/registeruser');
      await page.getByRole('button', { name: 'Send OTP' }).click();
      await expect(page.getByLabel('Student Full Name')).toBeFocused();
      await expectAccessible(page, 'registration with an error');

      await openDobCalendar(page);
      const calendar = page.getByRole('dialog');
      // The year view, latest year first, and no future year.
      const thisYear = new Date().getFullYear();
      await expect(calendar.getByRole('radio', { name: String(thisYear) })).toBeVisible();
      await expect(calendar.getByRole('radio', { name: String(thisYear + 1) })).toHaveCount(0);
      await expectAccessible(page, 'the open calendar');
      await snap(page, `calendar-${width}`);
      await page.keyboard.press('Escape');

      const student = newStudent();
      await fillRegistration(page, student);
      await page.getByRole('button', { name: 'Send OTP' }).click();
      await expect(page.getByLabel('OTP')).toBeFocused();
      await expectAccessible(page, 'the OTP stage');
      await snap(page, `otp-stage-${width}`);
    });

    test('a wrong login stays on the form until something changes', async ({ page, student }) => {
      await page.goto('/studentlogin');
      await page.getByLabel('Email ID or Mobile Number').fill(student.email);
      await page.getByLabel('Password', { exact: true }).fill(`${student.password}-wrong`);
      await page.getByRole('button', { name: 'Login' }).click();
      const message = page.getByRole('main').getByText('Invalid Email ID/Mobile Number or Password');
      await expect(message).toBeVisible();
      await expect(message).toBeFocused();
      await expectAccessible(page, 'student login with an error');
      // After the toast has gone, the form still says it.
      await expect(toasts(page)).toHaveCount(1);
      await expect(toasts(page)).toHaveCount(0);
      await expect(message).toBeVisible();
      await page.getByLabel('Password', { exact: true }).fill(student.password);
      await expect(message).toHaveCount(0);
    });

    test('the admin table and the editor dialog', async ({ adminPage: page, student }) => {
      await searchStudents(page, student.email);
      const grid = page.getByRole('grid', { name: 'Registered students' });
      const edit = grid.getByRole('button', { name: `Edit ${student.fullname}` });
      await expect(edit).toBeVisible();
      await expect(grid.getByRole('row')).toHaveCount(2);
      await expect(page.getByText('Loading ...')).toHaveCount(0);
      // The page never scrolls sideways; on a phone the table does, inside its card, to the Edit button.
      const pageWidth = await page.evaluate('document.documentElement.scrollWidth');
      expect(pageWidth).toBeLessThanOrEqual(width);
      await edit.scrollIntoViewIfNeeded();
      await expect(edit).toBeInViewport();
      // The page size can be chosen at any width (the grid hides it on a phone), and is named.
      const size = page.getByRole('combobox', { name: 'Rows per page:' });
      await size.scrollIntoViewIfNeeded();
      await expect(size).toBeInViewport({ ratio: 1 });
      // On a laptop every column fits: the last tool of a row is in sight without scrolling the table sideways.
      if (width >= 1280) {
        const erase = grid.getByRole('button', { name: `Erase personal data of ${student.fullname}` });
        await expect(erase).toBeInViewport({ ratio: 1 });
        const inside = await grid.locator('.MuiDataGrid-virtualScroller').evaluate((scroller, name) => {
          const button = scroller.querySelector(`[aria-label="${name}"]`)!.getBoundingClientRect();
          const box = scroller.getBoundingClientRect();
          return scroller.scrollLeft === 0 && button.right <= box.left + scroller.clientWidth;
        }, `Erase personal data of ${student.fullname}`);
        expect(inside).toBe(true);
      }
      await expectAccessible(page, 'the admin table');
      await edit.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('Mobile')).toHaveValue(student.mobile);
      await expect(dialog.getByRole('button', { name: 'Save' })).toBeInViewport();
      await expectAccessible(page, 'the editor');
      await dialog.getByLabel('Date of Birth').fill('31/02/2015');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByLabel('Date of Birth')).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page, 'the editor with an error');
      await snap(page, `admin-editor-${width}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(edit).toBeFocused();
    });
  });
}

test('the calendar popup is drawn above the field labels', async ({ page }) => {
  await page.goto('/registeruser');
  const calendar = page.getByRole('dialog');
  await openDobCalendar(page);
  const box = (await calendar.boundingBox())!;
  // At each point of a grid over the popup, the element drawn there belongs to the popup.
  const outside = await page.evaluate(`(() => {
    const popup = document.querySelector('[role="dialog"]');
    const box = ${JSON.stringify(box)};
    const misses = [];
    for (let x = box.x + 4; x < box.x + box.width - 4; x += 12) {
      for (let y = box.y + 4; y < box.y + box.height - 4; y += 12) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !popup.contains(hit)) misses.push(x + ',' + y + ' ' + (hit ? hit.tagName + '.' + hit.className : 'none'));
      }
    }
    return misses;
  })()`);
  expect(outside).toEqual([]);
});

test('every control shows a focus ring of at least 3:1', async ({ page }) => {
  await page.goto('/registeruser');
  await expect(page.getByRole('button', { name: 'Send OTP' })).toBeEnabled();
  // Tab through the form: each focused control draws an outline or a border of 2 px or more
  // whose colour has at least 3:1 against white.
  const report = await page.evaluate<boolean>(`(() => {
    const lum = (c) => {
      const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    window.__ring = (el) => {
      // The ring may sit on the control or on MUI's wrapper (the checkbox's span, the input's fieldset).
      for (let node = el; node && node !== document.body; node = node.parentElement) {
        const s = getComputedStyle(node);
        if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) {
          return { ok: (1.05) / (lum(s.outlineColor) + 0.05) >= 3, how: 'outline ' + s.outlineColor };
        }
        const fieldset = node.querySelector(':scope > fieldset');
        if (fieldset) {
          const f = getComputedStyle(fieldset);
          if (parseFloat(f.borderTopWidth) >= 2) return { ok: 1.05 / (lum(f.borderTopColor) + 0.05) >= 3, how: 'border ' + f.borderTopColor };
        }
      }
      return { ok: false, how: 'none' };
    };
    return true;
  })()`);
  expect(report).toBe(true);
  const seen: string[] = [];
  for (let i = 0; i < 24; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<{ name: string; ok: boolean; how: string } | null>(`(() => {
      const el = document.activeElement;
      if (!el || el === document.body || !el.closest('form')) return null;
      const name = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent) || el.textContent || el.name;
      return { name: el.tagName + ' ' + name, ...window.__ring(el) };
    })()`);
    if (!focused) continue;
    seen.push(focused.name);
    expect(focused.ok, `${focused.name}: ${focused.how}`).toBe(true);
  }
  expect(seen.some((name) => /checkbox|terms/i.test(name))).toBe(true);
  expect(seen.some((name) => /Son|Daughter|radio/i.test(name))).toBe(true);
});

test('terms and privacy: linked from the checkbox and the footer, pre-rendered, with contact details', async ({
  page,
  request,
}) => {
  for (const [path, heading] of [
    ['/terms', 'Terms and conditions'],
    ['/privacy', 'Privacy notice'],
  ] as const) {
    const html = await (await request.get(`${site.url}${path}`)).text();
    expect(html).toContain(`<h1>${heading}</h1>`);
    expect(html).toContain('Contact us');
  }
  await page.goto('/registeruser');
  await expect(page.getByRole('main').getByRole('link', { name: 'terms and conditions' })).toHaveAttribute(
    'href',
    '/terms',
  );
  // The box's label is its text alone: a click on any of it ticks the box.
  // (The page is pre-rendered: the form holds the tick once its code has taken over, which
  // arms the leave prompt; it then fetches its dialog.)
  const armed = page.waitForRequest(/\/assets\/leave-dialog-[^/]*\.js$/);
  await page.getByText('I agree with terms and conditions').click();
  await expect(page.getByLabel('I agree with terms and conditions')).toBeChecked();
  await armed;
  // The form holds something now (the ticked box): the footer's link asks first.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy notice' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave the registration?' });
  await leave.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy notice' })).toBeVisible();
  await expect(
    page
      .getByRole('main')
      .getByText(/Digital Personal Data Protection Act, 2023/)
      .first(),
  ).toBeVisible();
  // It names the marks the site keeps and mails, and when a group's average is shown.
  await expect(page.getByRole('main').getByText(/marks in the centre.s assessments/)).toBeVisible();
  await expect(page.getByRole('main').getByText(/at least five students have marks/)).toBeVisible();
  await snap(page, 'privacy');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 664 } });

  test('a link or a redirect opens the new page at its top; Back returns to where the reader was', async ({
    page,
    request,
    student,
  }) => {
    const scrolled = () => page.evaluate<number>('window.scrollY');
    await page.goto('/registeruser');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy notice' }).scrollIntoViewIfNeeded();
    const down = await scrolled();
    expect(down).toBeGreaterThan(300);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy notice' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy notice' })).toBeInViewport();
    expect(await scrolled()).toBe(0);
    await page.goBack();
    await expect(page.getByLabel('Student Full Name')).toBeAttached();
    await expect.poll(scrolled).toBeGreaterThan(300);

    // A login that lands on the dashboard (a redirect, not a link) starts at its top too.
    await studentToken(request, student.email, student.password);
    await page.goto('/studentlogin');
    await page.getByLabel('Email ID or Mobile Number').fill(student.email);
    await page.getByLabel('Password', { exact: true }).fill(student.password);
    await page.getByRole('button', { name: 'Login' }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 400);
    await expect.poll(scrolled).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Student Dashboard' })).toBeInViewport();
    expect(await scrolled()).toBe(0);
  });
});

test('forgot password: "Use a different e-mail" goes back to the first step', async ({ page, student }) => {
  await page.goto('/forgotpassword');
  await page.getByLabel('Email Address').fill(student.email);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await expect(page.getByLabel('OTP')).toBeFocused();
  await expectAccessible(page, 'forgot password, step 2');
  await page.getByRole('button', { name: 'Use a different e-mail' }).click();
  await expect(page.getByLabel('Email Address')).toBeFocused();
  await expect(page.getByLabel('OTP')).toHaveCount(0);
});

test('the header says where a logged-in student goes, and keeps "Enroll Now"', async ({ page, request, student }) => {
  await studentToken(request, student.email, student.password);
  await page.goto('/studentlogin');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Enroll Now' })).toBeVisible();
  await page.getByLabel('Email ID or Mobile Number').fill(student.email);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expectToast(page, 'Login Successful');
  await expect(page.getByRole('banner').getByRole('link', { name: 'My dashboard' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Enroll Now' })).toBeVisible();
  await expectAccessible(page, 'student dashboard');
});

test('the password rules and a strength hint show before submitting', async ({ page }) => {
  await page.goto('/registeruser');
  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toHaveAccessibleDescription('At least 8 characters, at most 64.');
  await password.fill('abc');
  await expect(password).toHaveAccessibleDescription(/Strength: weak/);
  await password.fill('Correct-Horse-7');
  await expect(password).toHaveAccessibleDescription(/Strength: strong/);
});
