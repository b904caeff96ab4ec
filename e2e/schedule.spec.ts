// The study schedule end to end: an admin adds a class and a holiday on the
// Timetable screen; the student of that batch sees them on the dashboard (in the
// centre's time zone, whatever the browser's); a student of another batch does not.

import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { addDays, weekStartOf, weekdayOf, zonedParts } from '../domain/src/zoned-time.ts';
import { TimetableMessage } from '../domain/src/timetable-messages.ts';
import {
  adminToken,
  apiCall,
  createStudent,
  emptyBatchTimetable,
  expect,
  expectToast,
  fetchFromSite,
  logInStudent,
  snap,
  test,
  typeDate,
  chooseOption,
} from './fixtures.ts';
import { tag } from '../testing/students.ts';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** No WCAG 2.1 A/AA violation that axe can find on the page as it is now. */
async function expectAxeClean(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function studentPage(browser: Browser, identifier: string, password: string, width: number): Promise<Page> {
  // A browser far from the centre: classes must still show at the centre's times.
  const context = await browser.newContext({ timezoneId: 'America/New_York', viewport: { width, height: 900 } });
  const page = await context.newPage();
  await logInStudent(page, identifier, password);
  return page;
}

/**
 * "This week" appears once another week is shown: Next stays where it was, under the finger or
 * the pointer, and the three buttons take the focus in the order they are seen (rows, then left
 * to right).
 */
async function expectNextStaysPut(week: Locator): Promise<void> {
  const thisWeek = week.getByRole('button', { name: 'This week' });
  if (await thisWeek.isVisible()) await thisWeek.click();
  await expect(thisWeek).toHaveCount(0);
  const next = week.getByRole('button', { name: 'Next week' });
  const before = await next.boundingBox();
  await next.click();
  await expect(thisWeek).toBeVisible();
  expect(await next.boundingBox()).toEqual(before);
  const buttons = [week.getByRole('button', { name: 'Previous week' }), next, thisWeek];
  const boxes = await Promise.all(buttons.map(async (button) => (await button.boundingBox())!));
  const seen = buttons
    .map((button, i) => ({ button, box: boxes[i]! }))
    .sort((a, b) => (Math.abs(a.box.y - b.box.y) > a.box.height / 2 ? a.box.y - b.box.y : a.box.x - b.box.x))
    .map(({ button }) => button);
  await seen[0]!.focus();
  for (const button of seen.slice(1)) {
    await week.page().keyboard.press('Tab');
    await expect(button).toBeFocused();
  }
  await thisWeek.click();
  await expect(thisWeek).toHaveCount(0);
}

test('an admin adds a class and a holiday; only the students of that batch see them', async ({
  adminPage: page,
  browser,
  request,
}) => {
  // One long story through three browsers and axe at two widths on a shared machine.
  test.setTimeout(180_000);
  const t = tag();
  const today = zonedParts(new Date(), 'Asia/Kolkata').date;
  const classDay = addDays(today, 1);
  const holidayDay = addDays(today, 2);
  const teacher = `Ms E2E ${t}`;
  const holidayTitle = `Founders day ${t}`;
  // The story needs both batches without classes: its class is the next one, the other batch has none.
  const token = await adminToken(request);
  await emptyBatchTimetable(request, token, 9, 'ICSE');
  await emptyBatchTimetable(request, token, 9, 'State');
  const mine = await createStudent(request, { grade: 9, board: 'ICSE' });
  const other = await createStudent(request, { grade: 9, board: 'State' });

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Timetable' }).click();
  await expect(page).toHaveURL(/\/admindashborad\/timetable$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Timetable' })).toBeVisible();
  await chooseOption(page, 'Grade', '9th');
  await chooseOption(page, 'Board', 'ICSE');
  // The times are the centre's, and the page names its zone (the browser's is UTC).
  await expect(
    page.getByText("Grade 9th, ICSE: its own classes and those for all boards. Times are the centre's (IST)."),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Add class' }).click();
  const dialog = page.getByRole('dialog', { name: /Add class/ });
  await chooseOption(page, 'Subject', 'Science', dialog);
  await chooseOption(page, 'Day', WEEKDAYS[weekdayOf(classDay) - 1]!, dialog);
  await dialog.getByLabel('Start time').fill('18:00');
  await dialog.getByLabel('Duration (minutes)').fill('10');
  // The domain rules answer at once, every field's under it, the first focused.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The duration must be a whole number of minutes from 15 to 180')).toBeVisible();
  await expect(dialog.getByText("Enter the teacher's name")).toBeVisible();
  await expect(dialog.getByLabel('Duration (minutes)')).toBeFocused();
  await dialog.getByLabel('Duration (minutes)').fill('60');
  // A field's message goes as it is mended; the others stay.
  await expect(dialog.getByText('The duration must be a whole number of minutes from 15 to 180')).toBeHidden();
  await expect(dialog.getByText("Enter the teacher's name")).toBeVisible();
  await dialog.getByLabel('Teacher').fill(teacher);
  await dialog.getByLabel('Online class link (optional)').fill('https://meet.example.com/e2e');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Class added to the timetable');
  await expect(page.getByText(teacher)).toBeVisible();

  // The server's clash rule, naming the slot.
  await page.getByRole('button', { name: 'Add class' }).click();
  const second = page.getByRole('dialog', { name: /Add class/ });
  await chooseOption(page, 'Day', WEEKDAYS[weekdayOf(classDay) - 1]!, second);
  await second.getByLabel('Start time').fill('18:30');
  await second.getByLabel('Teacher').fill('Mr Clash');
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(
    second.getByText(`This slot overlaps Science on ${WEEKDAYS[weekdayOf(classDay) - 1]} 18:00-19:00`),
  ).toBeVisible();
  await expectAxeClean(page); // the dialog, with the server's message under its fields
  await second.getByRole('button', { name: 'Cancel' }).click();

  // An empty holiday: the title's and the first day's messages at once.
  await page.getByRole('button', { name: 'Add holiday' }).click();
  await expect(page.getByText('Enter a title for the holiday')).toBeVisible();
  await expect(page.getByText('Enter a valid first day for the holiday')).toBeVisible();
  await page.getByLabel('Title').fill(holidayTitle);
  await typeDate(page, 'First day', 'from', holidayDay);
  // Sent by Enter in a field, and again while it is sent: one holiday asked for, and the button
  // (unavailable meanwhile, not disabled) sends nothing more.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holidaysAsked = 0;
  await page.route('**/api/timetable/holidays', async (route) => {
    if (route.request().method() === 'POST') {
      holidaysAsked += 1;
      await held;
    }
    await route.continue();
  });
  await page.getByLabel('Title').press('Enter');
  await expect(page.getByRole('button', { name: 'Adding...' })).toHaveAttribute('aria-disabled', 'true');
  await page.getByLabel('Title').press('Enter');
  await page.getByRole('button', { name: 'Adding...' }).dispatchEvent('click');
  release();
  await expectToast(page, 'Holiday added');
  expect(holidaysAsked).toBe(1);
  await page.unroute('**/api/timetable/holidays');
  // The form is empty again for the next one, its date too.
  await expect(page.locator('input[name="from"]')).toHaveValue('');
  await expect(page.getByText(holidayTitle)).toBeVisible();
  await snap(page, 'admin-timetable-1280');
  await expectAxeClean(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await snap(page, 'admin-timetable-390');
  await page.setViewportSize({ width: 320, height: 800 });
  await expectAxeClean(page);
  // Each class's and holiday's icon buttons are a finger's size on a phone (44 px), not 30.
  const iconButtons = await page.getByRole('button', { name: /^(Edit|Delete) / }).all();
  expect(iconButtons.length).toBeGreaterThanOrEqual(3);
  for (const button of iconButtons) {
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height), (await button.getAttribute('aria-label')) ?? '').toBeGreaterThanOrEqual(44);
  }
  await page.getByRole('button', { name: 'Add class' }).click();
  const narrow = page.getByRole('dialog', { name: /Add class/ });
  await narrow.getByRole('button', { name: 'Save' }).click();
  await expect(narrow.getByText("Enter the teacher's name")).toBeVisible();
  await snap(page, 'admin-timetable-dialog-320');
  // Every field's label reads whole on the narrowest phone, not cut with an ellipsis.
  const cut = await narrow
    .locator('label')
    .evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
  expect(cut).toEqual([]);
  await expectAxeClean(page);
  await narrow.getByRole('button', { name: 'Cancel' }).click();

  // The student of grade 9 ICSE.
  const student = await studentPage(browser, mine.email, mine.password, 1280);
  await expect(student.getByText(`Welcome, ${mine.fullname}`)).toBeVisible();
  await expect(student.getByRole('heading', { name: 'Your Profile' })).toBeVisible();
  const next = student.getByRole('region', { name: 'Next class' });
  await expect(next.getByText('Science')).toBeVisible();
  await expect(next.getByText(`with ${teacher}`)).toBeVisible();
  await expect(next.getByText(/18:00-19:00 IST/)).toBeVisible();
  await expect(next.getByText(/^Starts in /)).toBeVisible();
  await expect(next.getByRole('button', { name: 'Join class' })).toBeDisabled();

  const week = student.getByRole('region', { name: /This week|Week of/ });
  if (weekStartOf(classDay) !== weekStartOf(today)) await week.getByRole('button', { name: 'Next week' }).click();
  await expect(week.getByText(`(${teacher})`)).toBeVisible();
  await expect(week.getByText(/^18:00-19:00 Science/)).toBeVisible();
  if (weekStartOf(holidayDay) !== weekStartOf(classDay)) await week.getByRole('button', { name: 'Next week' }).click();
  await expect(week.getByText(holidayTitle)).toBeVisible();
  await snap(student, 'student-dashboard-1280');
  await expectAxeClean(student);
  await expectNextStaysPut(week);

  const calendar = student.getByRole('region', { name: 'Your calendar' });
  await calendar.getByRole('button', { name: 'Add to my calendar' }).click();
  const link = calendar.getByLabel('Your private calendar link');
  await expect(link).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{32}\.ics$/);
  // The button pressed has gone: the link takes the focus, ready to copy.
  await expect(link).toBeFocused();
  const first = await link.inputValue();
  await expect(calendar.getByRole('link', { name: 'Open in calendar app' })).toHaveAttribute('href', /^webcal:\/\//);
  const feed = await request.get(first, { maxRetries: 1 }); // as apiCall, after a long idle
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain(teacher);
  await calendar.getByRole('button', { name: 'Get a new link' }).click();
  const askedLink = student.getByRole('dialog', { name: 'Get a new calendar link?' });
  await expect(askedLink).toContainText('stops working at once');
  await askedLink.getByRole('button', { name: 'Get a new link' }).click();
  await expectToast(student, 'New calendar link made: the old one no longer works');
  await expect(link).not.toHaveValue(first);
  expect((await request.get(first, { maxRetries: 1 })).status()).toBe(404);

  const phone = await studentPage(browser, mine.email, mine.password, 390);
  await expect(phone.getByRole('region', { name: 'Next class' }).getByText(`with ${teacher}`)).toBeVisible();
  await snap(phone, 'student-dashboard-390');
  await expectNextStaysPut(phone.getByRole('region', { name: /This week|Week of/ }));
  await phone.setViewportSize({ width: 320, height: 800 });
  await expectAxeClean(phone);

  // A student of another board of the same grade sees none of it.
  const outsider = await studentPage(browser, other.email, other.password, 1280);
  await expect(outsider.getByRole('region', { name: 'Next class' })).toContainText('Your batch has no timetable yet');
  await expect(outsider.getByText(teacher)).toHaveCount(0);
  await snap(outsider, 'student-dashboard-empty-1280');
  await expectAxeClean(outsider);
  // Each student browser keeps a live connection and a countdown: not left running for the next tests.
  for (const opened of [student, phone, outsider]) await opened.context().close();

  // The holiday goes, once the admin says yes (Cancel has the focus).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: `Delete holiday ${holidayTitle}` }).click();
  const asked = page.getByRole('dialog', { name: 'Delete this holiday?' });
  await expect(asked).toContainText(holidayTitle);
  await expect(asked.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await asked.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Holiday deleted');
  await expect(page.getByText(holidayTitle)).toHaveCount(0);
  // Its Delete button went with it: the focus is on the section, not back at the page's start.
  await expect(page.getByRole('heading', { name: 'Holidays', level: 2 })).toBeFocused();
});

test("a holiday's long title with no space (an admin may type 80 characters) wraps within the week at 320 px", async ({
  browser,
  request,
}) => {
  const student = await createStudent(request);
  const context = await browser.newContext({ viewport: { width: 320, height: 800 } });
  const page = await context.newPage();
  // The week as the site answers it, with a holiday on its first day: no holiday of the whole
  // centre made here for the other tests' students to meet.
  const title = `FoundersDayOfTheGuidedLearningTuitionCentre${tag()}`.padEnd(80, 'x');
  await page.route(/\/api\/students\/me\/schedule/, async (route) => {
    const answer = await fetchFromSite(route);
    const body = (await answer.json()) as { days: { holiday: string; classes: unknown[] }[] };
    body.days[0] = { ...body.days[0]!, holiday: title, classes: [] };
    await route.fulfill({ response: answer, json: body });
  });
  await page.goto('/studentlogin');
  await page.getByLabel('Email ID or Mobile Number').fill(student.email);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Login' }).click();
  const week = page.getByRole('region', { name: /This week|Week of/ });
  const holiday = week.getByText(title);
  await expect(holiday).toBeVisible();
  // Its text stays within its line's box, and the box within the week's card.
  expect(await holiday.evaluate((line) => line.scrollWidth - line.clientWidth)).toBe(0);
  const [weekBox, holidayBox] = [(await week.boundingBox())!, (await holiday.boundingBox())!];
  expect(holidayBox.x + holidayBox.width).toBeLessThanOrEqual(weekBox.x + weekBox.width);
  await snap(page, 'student-week-long-holiday-320');
  await context.close();
});

test("a class edit saves only what it changed: another admin's change meanwhile to another field stays", async ({
  adminPage: page,
  request,
}) => {
  const token = await adminToken(request);
  await emptyBatchTimetable(request, token, 8, 'CBSE');
  const created = await apiCall(
    request,
    'POST',
    '/api/timetable/slots',
    { grade: 8, board: 'CBSE', subject: 'Mathematics', weekday: 1, start: '07:00', duration: 45, teacher: 'Mrs First' },
    token,
  );
  expect(created.status).toBe(201);
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Timetable' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Timetable' })).toBeVisible();
  await chooseOption(page, 'Grade', '8th');
  await chooseOption(page, 'Board', 'CBSE');
  await page.getByRole('button', { name: 'Edit Mathematics on Monday at 07:00' }).click();
  const dialog = page.getByRole('dialog', { name: /Edit class/ });
  await expect(dialog.getByLabel('Teacher')).toHaveValue('Mrs First');
  // Another admin gives the class another teacher while this form is open.
  const slotPath = `/api/timetable/slots/${(created.body as { objectId: string }).objectId}`;
  expect((await apiCall(request, 'PUT', slotPath, { teacher: 'Mr Second' }, token)).status).toBe(200);
  await dialog.getByLabel('Start time').fill('07:30');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TimetableMessage.slotUpdated);
  const query = new URLSearchParams({ grade: '8', board: 'CBSE' }).toString();
  const slots = await apiCall(request, 'GET', `/api/timetable/slots?${query}`, undefined, token);
  expect(slots.body).toEqual([expect.objectContaining({ start: '07:30', teacher: 'Mr Second' })]);
  // The week shows the class as stored: both changes.
  await expect(page.getByRole('region', { name: 'Monday' })).toContainText('Mr Second');
  await expect(page.getByRole('region', { name: 'Monday' })).toContainText('07:30');
  // Moved to another day, its card (and its Edit button, which had the focus back from the
  // dialog) goes from Monday: the focus follows it to Tuesday, not to the page's start.
  await page.getByRole('button', { name: 'Edit Mathematics on Monday at 07:30' }).click();
  await chooseOption(page, 'Day', 'Tuesday', dialog);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TimetableMessage.slotUpdated);
  await expect(page.getByRole('region', { name: 'Tuesday' })).toContainText('07:30');
  await expect(page.getByRole('button', { name: 'Edit Mathematics on Tuesday at 07:30' })).toBeFocused();
  // Moved after another class of the same day, its card moves in the list, and the focus stays
  // on it.
  const later = {
    grade: 8,
    board: 'CBSE',
    subject: 'Science',
    weekday: 2,
    start: '09:00',
    duration: 45,
    teacher: 'Mr Later',
  };
  expect((await apiCall(request, 'POST', '/api/timetable/slots', later, token)).status).toBe(201);
  await page.getByRole('button', { name: 'Edit Mathematics on Tuesday at 07:30' }).click();
  await dialog.getByLabel('Start time').fill('18:00');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TimetableMessage.slotUpdated);
  const tuesday = page.getByRole('region', { name: 'Tuesday' });
  await expect(tuesday.getByRole('button', { name: /^Edit / })).toHaveCount(2);
  await expect(tuesday.getByRole('button', { name: /^Edit / }).last()).toHaveAccessibleName(
    'Edit Mathematics on Tuesday at 18:00',
  );
  await expect(page.getByRole('button', { name: 'Edit Mathematics on Tuesday at 18:00' })).toBeFocused();
});
