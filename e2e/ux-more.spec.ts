// Issue 13, the items after the first round: a student changes their password,
// the header names who is signed in, toasts keep clear of the registration's
// last controls on phones, the date-of-birth calendar opens on a child's birth
// year, the admin login's leftovers, and axe on the admin tools' screens.

import type { Locator, Page } from '@playwright/test';
import { expect, expectToast, fillRegistration, newStudent, test, toasts } from './fixtures.ts';

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'element on screen').not.toBeNull();
  return box!;
}

async function waitForForm(page: Page): Promise<void> {
  await expect(page.getByLabel('Student Full Name')).toBeEditable();
  await expect(page.getByRole('button', { name: 'Send OTP' })).toBeEnabled();
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
    await waitForForm(page);
    await fillRegistration(page, newStudent());
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await expectToast(page, 'OTP sent successfully');
    const toast = toasts(page).first();
    const terms = page.getByLabel('I agree with terms and conditions');
    const verify = page.getByRole('button', { name: 'Verify & Register' });
    await expect(page.getByLabel('OTP')).toBeFocused();
    // Checked through the toast's whole life, while it may still be sliding in.
    for (let elapsed = 0; elapsed < 4_500; elapsed += 500) {
      if ((await toast.count()) === 0) break;
      const toastBox = await boxOf(toast);
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
