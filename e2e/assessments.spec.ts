// Assessments end to end: an admin creates an assessment, enters marks in the
// grid (typed like a spreadsheet) and by CSV, publishes; the student sees the
// marks, the batch average and the chart.

import type { APIRequestContext, Page } from '@playwright/test';
import {
  adminToken,
  apiCall,
  createStudent,
  expect,
  expectAccessible,
  expectToast,
  snap,
  studentToken,
  test,
  typeDate,
  chooseOption,
} from './fixtures.ts';
import { tag } from '../testing/students.ts';
import { AssessmentMessage, MarksText } from '../domain/src/assessments.ts';
import type { Board } from '../domain/src/constants.ts';
import { zonedParts } from '../domain/src/zoned-time.ts';

/**
 * Records what the open confirmation (title and text) says from now until it has gone, each
 * different reading once: a question must not change its words while it closes.
 */
async function questionsWhileOpen(page: Page): Promise<() => Promise<string[]>> {
  // As a script: this project's tests are typed for Node, without the DOM's names.
  await page.evaluate(`{
    const seen = (window.questionsSeen = []);
    const read = () => {
      for (const dialog of document.querySelectorAll('[role="dialog"]')) {
        const words = ['h2', 'p'].map((tag) => dialog.querySelector(tag)?.textContent ?? '').join('');
        if (!seen.includes(words)) seen.push(words);
      }
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
  }`);
  return () => page.evaluate<string[]>('window.questionsSeen');
}

/** Opens the site as the student of `token`, as their login would have left it. */
async function signInAsStudent(page: Page, token: string): Promise<void> {
  await page.goto('/studentlogin');
  await page.evaluate(`sessionStorage.setItem('userData', ${JSON.stringify(JSON.stringify({ tokenStudent: token }))})`);
}

/** A student's enrollment number (what a marks row names), found by their e-mail as the admin of `token`. */
async function enrollmentIdOf(request: APIRequestContext, token: string, email: string): Promise<number> {
  const listed = await apiCall(request, 'GET', `/api/users?q=${encodeURIComponent(email)}`, undefined, token);
  return listed.body[0].id as number;
}

/** A new student of a batch, an admin's token and the student's enrollment number (to give them marks). */
async function studentToMark(request: APIRequestContext, batch: { grade: number; board: Board }) {
  const student = await createStudent(request, batch);
  const token = await adminToken(request);
  return { student, token, id: await enrollmentIdOf(request, token, student.email) };
}

/** Today's date at the centre (the site's default zone), YYYY-MM-DD. */
const todayAtCentre = () => zonedParts(new Date(), 'Asia/Kolkata').date;

/** A draft assessment made through the API, as the admin of `token`. */
async function createAssessment(
  request: APIRequestContext,
  token: string,
  fields: object,
): Promise<{ objectId: string }> {
  return (await apiCall(request, 'POST', '/api/assessments', fields, token)).body as { objectId: string };
}

/** An assessment made, given these marks and published through the API, as the admin of `token`. */
async function publishedWithMarks(
  request: APIRequestContext,
  token: string,
  fields: object,
  rows: { id: number; value: string }[],
): Promise<{ objectId: string }> {
  const created = await createAssessment(request, token, fields);
  await apiCall(request, 'PUT', `/api/assessments/${created.objectId}/marks`, { rows }, token);
  await apiCall(request, 'POST', `/api/assessments/${created.objectId}/publish`, undefined, token);
  return created;
}

type DraftFields = { grade: number; board: Board; subject: string; title: string };

/** A student of the draft's batch and the draft (out of 10, dated 20/11/2026), made through the API. */
async function draftWithStudent(
  request: APIRequestContext,
  { fullname, assessment }: { fullname: string; assessment: DraftFields },
) {
  await createStudent(request, { fullname, grade: assessment.grade, board: assessment.board });
  const token = await adminToken(request);
  const created = await createAssessment(request, token, { ...assessment, date: '2026-11-20', maxMarks: 10 });
  return { token, created };
}

/** The draft's marks opened by their address, its student alone in the grid (found by a search): their marks cell. */
async function openMarksOf(page: Page, created: { objectId: string }, fullname: string) {
  await page.goto(`/admin/assessments?marks=${created.objectId}`);
  await searchMarks(page, fullname);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(2);
  return grid.getByRole('row').nth(1).locator('[data-field="value"]');
}

/**
 * A student alone in a new draft's grid (found by a search), with a mark typed and not saved:
 * the set-up of the tests of unsaved marks. The draft is out of 10, dated 20/11/2026.
 */
async function typeUnsavedMark(
  page: Page,
  request: APIRequestContext,
  { fullname, assessment, mark }: { fullname: string; assessment: DraftFields; mark: string },
) {
  const { token, created } = await draftWithStudent(request, { fullname, assessment });
  const cell = await openMarksOf(page, created, fullname);
  await cell.click();
  await page.keyboard.type(mark);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
  return { token, created, cell };
}

/**
 * Types `mine` for a new student of a new draft; another admin then saves `theirs` for the
 * student, and the admin presses Save: the row is refused as saved meanwhile.
 */
async function refusedAsSavedMeanwhile(
  page: Page,
  request: APIRequestContext,
  { fullname, assessment, mine, theirs }: { fullname: string; assessment: DraftFields; mine: string; theirs: string },
) {
  const { token, created, cell } = await typeUnsavedMark(page, request, { fullname, assessment, mark: mine });
  const marksOf = `/api/assessments/${created.objectId}/marks`;
  const listed = async () =>
    (
      (await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(fullname)}`, undefined, token)).body as {
        id: number;
        value: string;
      }[]
    )[0]!;
  expect(
    (await apiCall(request, 'PUT', marksOf, { rows: [{ id: (await listed()).id, value: theirs }] }, token)).status,
  ).toBe(200);
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  return { cell, listed };
}

/** A workbook (.xlsx, a zip) chosen where a CSV file is asked for: its first bytes. */
const WORKBOOK = {
  name: 'marks.xlsx',
  mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
};

/**
 * Searches the marks grid and waits until the grid shows that search's answer: until then a
 * click can land on rows the search is about to redraw (the first page loads unfiltered and
 * may hold the same rows), and a click on a redrawn button is lost.
 */
async function searchMarks(page: Page, text: string): Promise<void> {
  const answered = page.waitForResponse(
    (response) =>
      /\/api\/assessments\/[^/]+\/marks\?/.test(response.url()) &&
      new URL(response.url()).searchParams.get('q') === text,
  );
  await page.getByLabel('Search students').fill(text);
  await answered;
  await expect(page.getByRole('grid').getByText('Loading ...')).toHaveCount(0);
}

test('admin enters marks in the grid and by CSV and publishes; the student sees marks, average and chart', async ({
  adminPage: page,
  request,
}) => {
  test.setTimeout(180_000);
  const run = tag();
  const title = `Unit Test ${run}`;
  const pupils = [];
  for (let i = 1; i <= 5; i++) {
    pupils.push(await createStudent(request, { fullname: `Progress ${run} ${i}`, grade: 9, board: 'State' }));
  }
  const ids: number[] = [];
  const token = await adminToken(request);
  for (const p of pupils) {
    const listed = await apiCall(request, 'GET', `/api/users?q=${encodeURIComponent(p.email)}`, undefined, token);
    ids.push(listed.body[0].id);
  }
  // An earlier published test, so that the chart has two points.
  await publishedWithMarks(
    request,
    token,
    { grade: 9, board: 'State', subject: 'Mathematics', title: `Earlier ${run}`, date: '2026-01-10', maxMarks: 10 },
    [{ id: ids[0]!, value: '6' }],
  );

  await page.getByRole('link', { name: 'Assessments' }).click();
  await expect(page).toHaveURL(/\/admin\/assessments$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Assessments' })).toBeVisible();

  // Create, with field errors first: every field's at once.
  await page.getByRole('button', { name: 'New assessment' }).click();
  const dialog = page.getByRole('dialog', { name: 'New assessment' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  for (const message of [
    'Grade is required',
    'Choose a board, or all boards',
    'Choose a subject from the list',
    'Please enter a title',
    'Maximum marks must be a whole number from 1 to 1000',
  ]) {
    await expect(dialog.getByText(message)).toBeVisible();
  }
  await expect(dialog.getByRole('combobox', { name: 'Grade' })).toBeFocused();
  await chooseOption(page, 'Grade', '9th');
  await chooseOption(page, 'Board', 'State');
  await chooseOption(page, 'Subject', 'Mathematics');
  await dialog.getByLabel('Title').fill(title);
  await typeDate(dialog, 'Date', 'date', '2026-11-20');
  await dialog.getByLabel('Maximum marks').fill('2000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Maximum marks must be a whole number from 1 to 1000')).toBeVisible();
  await dialog.getByLabel('Maximum marks').fill('20');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Assessment created');
  // The marks open below the list: brought into view, their heading focused.
  const marksHeading = page.getByRole('heading', { name: `Marks: Mathematics, ${title}` });
  await expect(marksHeading).toBeFocused();
  await expect(marksHeading).toBeInViewport();

  // The grid: search the five, type marks like a spreadsheet.
  await searchMarks(page, `Progress ${run}`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(6);
  const marksCell = (row: number) => grid.getByRole('row').nth(row).locator('[data-field="value"]');
  await marksCell(1).click();
  // The focused cell has the site's 3 px ring, not the grid's own 1 px one.
  await expect(marksCell(1)).toHaveCSS('outline-width', '3px');
  await page.keyboard.type('18');
  await page.keyboard.press('Enter');
  // Enter moved down: the next typing lands in the second row.
  await page.keyboard.type('25');
  await page.keyboard.press('Enter');
  await expect(grid.getByText('Marks must be from 0 to 20 in steps of 0.5, or absent')).toBeVisible();
  await expect(page.getByText('1 row needs attention: see “Problem”.')).toBeVisible();
  await marksCell(2).click();
  await page.keyboard.type('15');
  await page.keyboard.press('Enter');
  await page.keyboard.type('7');
  await page.keyboard.press('Escape');
  await expect(marksCell(3)).toHaveText('');
  await page.keyboard.type('12.5');
  await page.keyboard.press('Enter');
  await expect(marksCell(1)).toHaveText('18');
  await expect(marksCell(2)).toHaveText('15');
  await expect(marksCell(3)).toHaveText('12.5');

  // Unsaved changes are not lost to a click on a link.
  await page.getByRole('link', { name: 'Students' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/admin\/assessments/);
  // Nor to Logout: it asks first, and "Stay" keeps the session and the marks.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/assessments/);
  await expect(marksCell(3)).toHaveText('12.5');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeFocused();

  // Saved from the keyboard, the button keeps the focus (now 'Saved', inert).
  await page.getByRole('button', { name: 'Save 3 changes' }).focus();
  await page.keyboard.press('Enter');
  await expectToast(page, 'Saved 3 marks');
  await expect(page.getByRole('button', { name: 'Saved' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();
  await snap(page, 'assessments-grid-1280');
  await expectAccessible(page, 'the marks grid at 1280 px');

  // CSV: a bad file is refused row by row, a good one saved.
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const csvDialog = page.getByRole('dialog', { name: 'Import marks from CSV' });
  const file = (text: string) => ({ name: 'marks.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await csvDialog.getByLabel('CSV file').setInputFiles(file(`enrollment id,marks\n${ids[3]},21\n`));
  await expect(csvDialog.getByText('1 of 1 row has an error. Fix it in the file and choose it again.')).toBeVisible();
  await csvDialog.getByLabel('CSV file').setInputFiles(file(`enrollment id,marks\n${ids[3]},10\n${ids[3]},11\n`));
  await expect(csvDialog.getByText('2 of 2 rows have errors')).toBeVisible();
  await expect(csvDialog.getByText('This enrollment id appears more than once').first()).toBeVisible();
  await expect(csvDialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  // A control character an old program left is its line's error, not the whole file's.
  await csvDialog.getByLabel('CSV file').setInputFiles(file(`${ids[3]},1\u00010\n${ids[4]},16\n\u001a`));
  await expect(csvDialog.getByText('1 of 2 rows has an error')).toBeVisible();
  await expect(csvDialog.getByText(AssessmentMessage.controlCharacter)).toBeVisible();
  await snap(page, 'assessments-csv-errors-1280');
  await expectAccessible(page, 'the CSV preview with errors');
  // A workbook chosen by mistake is named for what it is before anything is sent; Excel's
  // "Unicode text" (UTF-16, tab-separated) is read as the CSV it stands for.
  await csvDialog.getByLabel('CSV file').setInputFiles(WORKBOOK);
  await expect(csvDialog.getByText(AssessmentMessage.notCsv)).toBeVisible();
  const unicodeText = Buffer.from(`\uFEFFenrollment id\tmarks\r\n${ids[3]}\t10\r\n`, 'utf16le');
  await csvDialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'marks.txt', mimeType: 'text/plain', buffer: unicodeText });
  await expect(csvDialog.getByText('The row is good.')).toBeVisible();
  await expect(csvDialog.getByText(AssessmentMessage.notCsv)).toHaveCount(0);
  // The preview names the file it is of.
  await expect(csvDialog).toContainText('File: marks.txt');
  await expect(csvDialog.getByText('Choose another file')).toBeVisible();
  // A blank marks cell (as the template has) leaves the marks typed in the grid.
  await csvDialog
    .getByLabel('CSV file')
    .setInputFiles(file(`enrollment id,marks\n${ids[0]},\n${ids[3]},10\n${ids[4]},16\n`));
  await expect(csvDialog.getByText('All 3 rows are good. 1 with no marks is left as it is.')).toBeVisible();
  // Each row with its student's name, to check before saving (a mistyped id is another child).
  const toSave = csvDialog.getByRole('table', { name: 'Rows to save' }).getByRole('row');
  await expect(toSave).toHaveCount(4);
  await expect(toSave.nth(1)).toHaveText(`2${ids[0]}${pupils[0]!.fullname}left as it is`);
  await expect(toSave.nth(3)).toHaveText(`4${ids[4]}${pupils[4]!.fullname}16`);
  await snap(page, 'assessments-csv-good-1280');
  await expectAccessible(page, 'the CSV preview of a good file');
  await csvDialog.getByRole('button', { name: 'Save 2 marks' }).click();
  await expectToast(page, 'Imported 2 marks');
  await expect(marksCell(5)).toHaveText('16');
  await expect(marksCell(1)).toHaveText('18');

  // Publish, from the list of drafts: the published one leaves that list, its open marks say so at once.
  await chooseOption(page, 'Status', 'Drafts');
  await page.getByRole('button', { name: `Publish ${title}` }).click();
  // The site's confirmation: Cancel has the focus, so a stray Enter publishes nothing.
  const publishing = page.getByRole('dialog', { name: 'Publish this assessment?' });
  await expect(publishing.getByRole('button', { name: 'Cancel' })).toBeFocused();
  const asked = await questionsWhileOpen(page);
  await publishing.getByRole('button', { name: 'Publish' }).click();
  await expectToast(page, `Published “${title}”`);
  // The question reads the same while it closes (it once became "Delete this draft?").
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await asked()).toEqual([`Publish this assessment?${MarksText.publish(title, 5, 0)}`]);
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Marks: Mathematics, ${title}` })).toContainText('Published:');
  // Its Publish button has gone: the focus is on its open marks.
  await expect(marksHeading).toBeFocused();
  await chooseOption(page, 'Status', 'Drafts and published');
  await expect(page.getByRole('row', { name: new RegExp(title) }).getByText('Published')).toBeVisible();
  // 18, 15, 12.5, 10, 16: the batch average, to one decimal as students see it, of 5 students.
  await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText('14.3 (5 students)');
  await expect(page.getByRole('region', { name: `Marks: Mathematics, ${title}` })).toContainText(
    'Average 14.3 (5 students)',
  );
  await snap(page, 'assessments-1280');
  // The list's filters ask the server.
  await chooseOption(page, 'Status', 'Drafts');
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(0);
  await chooseOption(page, 'Grade', '1st');
  await chooseOption(page, 'Board', 'For all boards');
  await expect(page.getByText('No assessment matches these filters.')).toBeVisible();
  await chooseOption(page, 'Board', 'Any board');
  await chooseOption(page, 'Status', 'Published');
  await chooseOption(page, 'Grade', '9th');
  await expect(page.getByRole('row', { name: new RegExp(title) })).toBeVisible();

  // On a phone the list is cards, their actions in reach without scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByRole('list', { name: 'Assessments' }).getByRole('listitem').filter({ hasText: title });
  await expect(card).toContainText('average 14.3 (5 students)');
  await expect(card.getByRole('button', { name: `Marks of ${title}` })).toBeInViewport();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  await snap(page, 'assessments-390');
  await page.setViewportSize({ width: 320, height: 720 });
  await expectAccessible(page, 'the assessments list at 320 px');

  // The student.
  // A context of its own (axe needs one), as a second browser would have.
  const studentContext = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 390, height: 844 } });
  const studentPage = await studentContext.newPage();
  const tokenStudent = await studentToken(request, pupils[0]!.email, pupils[0]!.password);
  await signInAsStudent(studentPage, tokenStudent);
  await studentPage.goto('/dashboard');
  await studentPage.getByRole('link', { name: 'See your progress' }).click();
  await expect(studentPage).toHaveURL(/\/dashboard\/progress$/);
  const results = studentPage.getByRole('region', { name: 'All results' });
  await expect(results.getByRole('listitem').first()).toContainText(`Mathematics: ${title}`);
  await expect(results.getByRole('listitem').first()).toContainText('18 / 20 (90%)');
  // 18, 15, 12.5, 10, 16: five students with marks, so the average is shown.
  await expect(results.getByRole('listitem').first()).toContainText('Batch average 14.3 / 20 (71.5%)');
  await expect(results.getByRole('listitem').nth(1)).toContainText('Batch average shown once 5 students have marks');
  const subject = studentPage.getByRole('region', { name: 'Mathematics' });
  await expect(subject.getByText('Your average 75%')).toBeVisible();
  await expect(subject.locator('svg').first()).toBeVisible();
  await expect(subject.getByRole('table')).toContainText('90%');
  const width = await studentPage.evaluate<number>('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(390);
  await snap(studentPage, 'progress-390');
  await studentPage.setViewportSize({ width: 320, height: 720 });
  await expectAccessible(studentPage, 'the progress page at 320 px');
  await studentPage.setViewportSize({ width: 1280, height: 900 });
  await snap(studentPage, 'progress-1280');
  await expectAccessible(studentPage, 'the progress page at 1280 px');
  await studentContext.close();
});

test('a student without marks sees the empty state', async ({ page, request }) => {
  const student = await createStudent(request, { grade: 1, board: 'ICSE' });
  const token = await studentToken(request, student.email, student.password);
  await signInAsStudent(page, token);
  await page.goto('/dashboard/progress');
  await expect(
    page.getByText('No marks yet: your first results will appear here after your next test', { exact: true }),
  ).toBeVisible();
});

test("a subject's first result is already a chart: one point, on a 320 px phone", async ({ page, request }) => {
  const { student, token, id } = await studentToMark(request, { grade: 3, board: 'State' });
  await publishedWithMarks(
    request,
    token,
    { grade: 3, board: 'State', subject: 'Science', title: `First ${tag()}`, date: '2026-11-02', maxMarks: 25 },
    [{ id, value: '20' }],
  );
  await page.setViewportSize({ width: 320, height: 720 });
  await signInAsStudent(page, await studentToken(request, student.email, student.password));
  await page.goto('/dashboard/progress');
  const subject = page.getByRole('region', { name: 'Science' });
  await expect(subject.getByText('Your average 80%')).toBeVisible();
  const chart = subject.locator('svg').first();
  await expect(chart).toBeVisible();
  await expect(chart.locator('circle')).toHaveCount(1);
  await expect(chart).toContainText('02/11');
  await expect(subject.getByRole('table')).toContainText('80%');
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
  await snap(page, 'progress-one-result-320');
});

test("without the charts' code (the network dropped), each subject's results show as a table", async ({
  page,
  request,
}) => {
  const { student, token, id } = await studentToMark(request, { grade: 3, board: 'State' });
  await publishedWithMarks(
    request,
    token,
    { grade: 3, board: 'State', subject: 'English', title: `No chart ${tag()}`, date: '2026-11-03', maxMarks: 20 },
    [{ id, value: '15' }],
  );
  // Every time: the page reloads once (a chunk that does not come may be a new release's), then
  // shows the tables, through Vite's own loader (the component test goes round it).
  await page.route(/\/assets\/subject-chart-[\w-]+\.js$/, (route) => route.abort());
  await signInAsStudent(page, await studentToken(request, student.email, student.password));
  await page.goto('/dashboard/progress');
  const table = page.getByRole('region', { name: 'English' }).getByRole('table');
  await expect(table).toBeVisible();
  await expect(table).toContainText('75%');
  await expect(page.getByText('This page could not be loaded')).toHaveCount(0);
  await expectAccessible(page, 'the progress page without its charts');
});

test('two tests on one day keep a point each in the chart, and dates over two years show the year', async ({
  page,
  request,
}) => {
  const { student, token, id } = await studentToMark(request, { grade: 2, board: 'CBSE' });
  const run = tag();
  for (const [date, value] of [
    ['2025-12-12', '10'],
    ['2026-03-05', '12'],
    ['2026-03-05', '16'],
  ] as const) {
    await publishedWithMarks(
      request,
      token,
      { grade: 2, board: 'CBSE', subject: 'Hindi', title: `Same day ${run} ${value}`, date, maxMarks: 20 },
      [{ id, value }],
    );
  }
  const own = await studentToken(request, student.email, student.password);
  await signInAsStudent(page, own);
  await page.goto('/dashboard/progress');
  const subject = page.getByRole('region', { name: 'Hindi' });
  // 50 %, 60 % and 80 %.
  await expect(subject.getByText('Your average 63.3%')).toBeVisible();
  const chart = subject.locator('svg').first();
  await expect(chart.locator('circle')).toHaveCount(3);
  // Each point at its own place along the axis (equal labels once shared one).
  const places = await chart.locator('circle').evaluateAll((marks) => marks.map((m) => m.getBoundingClientRect().x));
  expect(new Set(places).size).toBe(3);
  await expect(chart).toContainText('12/12/25');
  await expect(chart).toContainText('05/03/26');
  // Straight lines from point to point (a curve's path has "C" commands).
  await expect(chart.locator('path.MuiLineChart-line')).toHaveAttribute('d', /^M[\d.,-]+(L[\d.,-]+){2}$/);
});

test('Logout with unsaved marks, answered "Leave", logs out without asking again', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  await typeUnsavedMark(page, request, {
    fullname: `Leaving ${run}`,
    assessment: { grade: 7, board: 'CBSE', subject: 'English', title: `Leave ${run}` },
    mark: '7',
  });

  await page.getByRole('button', { name: 'Logout' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toContainText('1 changed mark is not saved yet.');
  await leave.getByRole('button', { name: 'Leave' }).click();
  await expectToast(page, 'Logged out successfully');
  await expect(page).toHaveURL(/\/adminlogin$/);
  await expect(leave).toBeHidden();
  expect(await page.evaluate<string | null>(`window.localStorage.getItem('adminToken')`)).toBeNull();
});

test("a change of the list's filters keeps the marks being typed, in the panel of the assessment they belong to", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const { token, created, cell } = await typeUnsavedMark(page, request, {
    fullname: `Filtered ${run}`,
    assessment: { grade: 8, board: 'State', subject: 'Science', title: `Filters ${run}` },
    mark: '6',
  });
  // Filters that leave the open assessment out of the list: the panel and its typed mark stay.
  await chooseOption(page, 'Status', 'Published');
  await chooseOption(page, 'Grade', '2nd');
  await expect(page.getByRole('heading', { name: `Marks: Science, Filters ${run}` })).toBeVisible();
  await expect(cell).toHaveText('6');
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  const saved = await apiCall(
    request,
    'GET',
    `/api/assessments/${created.objectId}/marks?q=${encodeURIComponent(`Filtered ${run}`)}`,
    undefined,
    token,
  );
  expect((saved.body as { value: unknown }[])[0]).toMatchObject({ value: '6' });
});

test("the question before publishing names the students with marks so far and the table's unsaved marks", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const title = `Ask ${run}`;
  await typeUnsavedMark(page, request, {
    fullname: `Asked ${run}`,
    assessment: { grade: 2, board: 'State', subject: 'Hindi', title },
    mark: '8',
  });
  await chooseOption(page, 'Status', 'Drafts');
  await chooseOption(page, 'Grade', '2nd');
  const publishing = page.getByRole('dialog', { name: 'Publish this assessment?' });
  await page.getByRole('button', { name: `Publish ${title}` }).click();
  await expect(publishing).toHaveText(
    new RegExp(
      `1 changed mark is not saved yet\\. Publishing leaves it out until saved\\. No student has marks on “${title}” yet: ` +
        'each student sees it, and gets an e-mail, when their marks are saved\\.',
    ),
  );
  await expectAccessible(page, 'the question before publishing');
  await page.setViewportSize({ width: 320, height: 640 });
  await expectAccessible(page, 'the question before publishing at 320 px');
  await page.setViewportSize({ width: 1280, height: 720 });
  await publishing.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  // Asked at once: the list's reload after the save may come while the question is open.
  await page.getByRole('button', { name: `Publish ${title}` }).click();
  await expect(publishing).toContainText(
    `Students will see “${title}”, and each active student with marks gets an e-mail (1 student with marks so far).`,
  );
  await expect(publishing).not.toContainText('not saved yet');
  await publishing.getByRole('button', { name: 'Publish' }).click();
  await expectToast(page, `Published “${title}”`);
});

test('a new maximum checks the marks typed and not saved yet again', async ({ adminPage: page, request }) => {
  const run = tag();
  const title = `Max ${run}`;
  const { cell } = await typeUnsavedMark(page, request, {
    fullname: `Maxed ${run}`,
    assessment: { grade: 1, board: 'CBSE', subject: 'Science', title },
    mark: '7',
  });
  await chooseOption(page, 'Status', 'Drafts');
  await chooseOption(page, 'Grade', '1st');
  const edit = async (maxMarks: string) => {
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit assessment' });
    await dialog.getByLabel('Maximum marks').fill(maxMarks);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
  };
  const refused = page.getByRole('grid').getByText('Marks must be from 0 to 5 in steps of 0.5, or absent');
  await edit('5');
  await expect(refused).toBeVisible();
  await expect(cell).toHaveText('7');
  await edit('10');
  await expect(refused).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
});

test('deleting the draft whose marks are open closes its panel and its address, its unsaved marks unasked', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const title = `Deleted ${run}`;
  const fullname = `Deleted ${run}`;
  // A mark typed and not saved: the question about deleting the draft says its marks go.
  const { created } = await typeUnsavedMark(page, request, {
    fullname,
    assessment: { grade: 3, board: 'CBSE', subject: 'English', title },
    mark: '6',
  });
  const heading = page.getByRole('heading', { name: `Marks: English, ${title}` });
  await expect(heading).toBeVisible();
  // The page does not look for the assessment it has just deleted (which answered "not found").
  const lookups: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/assessments/${created.objectId}`)
      lookups.push(r.url());
  });
  await page.getByRole('button', { name: `Delete ${title}` }).click();
  // Waited for from before the delete: the list's reload can answer before the toast shows.
  const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/assessments');
  const asked = await questionsWhileOpen(page);
  await page.getByRole('dialog', { name: 'Delete this draft?' }).getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, `Deleted “${title}”`);
  await listed;
  await expect(heading).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/assessments$/);
  // No second question (it once asked "Leave without saving?", and "Stay" kept the deleted
  // draft's panel); the first read the same while it closed (it once said "“undefined”").
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await asked()).toEqual([`Delete this draft?“${title}” and its marks will be deleted.`]);
  expect(lookups).toEqual([]);
  // Nothing is left to keep the admin: another page opens unasked.
  await page.getByRole('link', { name: 'Students' }).click();
  await expect(page).toHaveURL(/\/admindashborad$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test("the list's last page emptied (its draft deleted) shows the page before it, not an empty list", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  const create = (title: string, date: string) =>
    createAssessment(request, token, { grade: 7, board: 'State', subject: 'Hindi', title, date, maxMarks: 10 });
  // Grade 7, State, drafts: as many as make this run's oldest one alone on the list's last
  // page (25 a page, newest first), whatever earlier runs left.
  const existing = await apiCall(request, 'GET', '/api/assessments?grade=7&board=State&status=draft', undefined, token);
  const before = Number(existing.headers['x-total-count']);
  let toAdd = (25 - (before % 25)) % 25;
  if (before + toAdd === 0) toAdd = 25;
  for (let i = 0; i < toAdd; i++) await create(`Page ${run} ${i}`, '2026-06-01');
  await create(`Last ${run}`, '2000-01-03');
  const total = before + toAdd + 1;
  await page.goto('/admin/assessments');
  await chooseOption(page, 'Grade', '7th');
  await chooseOption(page, 'Board', 'State');
  await chooseOption(page, 'Status', 'Drafts');
  const lastPage = Math.ceil(total / 25);
  for (let p = 1; p < lastPage; p++) await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`Last ${run}`) })).toBeVisible();
  await page.getByRole('button', { name: `Delete Last ${run}` }).click();
  await page.getByRole('dialog', { name: 'Delete this draft?' }).getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, `Deleted “Last ${run}”`);
  // The page before: full, and named as the last of what is left.
  await expect(page.getByText(`${(lastPage - 2) * 25 + 1}–${total - 1} of ${total - 1}`)).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(26);
  await expect(page.getByText('No assessments yet')).toHaveCount(0);
});

test('a tap beside the new-assessment dialog keeps what was typed; Escape closes it', async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/assessments');
  await page.getByRole('button', { name: 'New assessment' }).click();
  const dialog = page.getByRole('dialog', { name: 'New assessment' });
  await dialog.getByLabel('Title').fill('Unit Test 4');
  // The dimmed page around the dialog, as a stray thumb would touch it.
  await page.mouse.click(4, 4);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue('Unit Test 4');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a link to an assessment's marks opens them whatever its page in the list; one that is gone says so", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  const create = (title: string, date: string) =>
    createAssessment(request, token, { grade: 6, board: 'State', subject: 'Science', title, date, maxMarks: 10 });
  const old = await create(`Oldest ${run}`, '2020-01-06');
  // More than a page of newer ones: the old one is not on the list's first page.
  for (let i = 0; i < 26; i++) await create(`Newer ${run} ${i}`, '2026-06-01');
  await page.goto(`/admin/assessments?marks=${old.objectId}`);
  await expect(page.getByRole('heading', { name: `Marks: Science, Oldest ${run}` })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Oldest ${run}`) })).toHaveCount(0);

  await page.goto('/admin/assessments?marks=gone');
  await expectToast(page, 'Assessment not found');
  await expect(page).toHaveURL(/\/admin\/assessments$/);
});

test('while the marks grid loads another view it says so, and axe finds nothing to fault at 320 and 1280 px', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  await createStudent(request, { fullname: `Reload ${run}`, grade: 6, board: 'ICSE' });
  const token = await adminToken(request);
  const created = await createAssessment(request, token, {
    grade: 6,
    board: 'ICSE',
    subject: 'Science',
    title: `Reload ${run}`,
    date: '2026-11-20',
    maxMarks: 10,
  });
  await page.goto(`/admin/assessments?marks=${created.objectId}`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: 900 });
    // The answer to a search is held back while the grid shows its rows loading.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const search = `Reload ${run} ${width}`;
    await page.route(
      (url) => /\/api\/assessments\/[^/]+\/marks$/.test(url.pathname) && url.searchParams.get('q') === search,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.getByLabel('Search students').fill(search);
    await expect(grid.getByText('Loading ...')).toBeVisible();
    // Said outside the grid, whose rows are all a screen reader may find in it.
    await expect(page.getByRole('status').filter({ hasText: /^Loading students \.\.\.$/ })).toHaveCount(1);
    // The seed's words are on the page once: a test that looks for them finds one element.
    await expect(page.getByText('Loading ...')).toHaveCount(1);
    await expectAccessible(page, `the marks grid loading at ${width} px`);
    answer();
    await expect(grid.getByText('Loading ...')).toHaveCount(0);
    await expect(
      page.getByRole('status').filter({ hasText: 'No student of this batch matches the search' }),
    ).toHaveCount(1);
    await page.getByLabel('Search students').fill('');
    await expect(grid.getByText('Loading ...')).toHaveCount(0);
  }
});

test('on a phone the CSV preview lists each bad row with its whole error, the rows of a good file with their names; a workbook is named as such', async ({
  adminPage: page,
  request,
}) => {
  // Five axe runs and three widths: 49 s in a full CI run, where 60 s is the default.
  test.setTimeout(120_000);
  const token = await adminToken(request);
  const a = await createAssessment(request, token, {
    grade: 6,
    board: 'State',
    subject: 'Science',
    title: `Phone CSV ${tag()}`,
    date: '2026-06-01',
    maxMarks: 10,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/assessments?marks=${a.objectId}`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import marks from CSV' });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'marks.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('"1"2,5\n99999999,11\n'),
  });
  const rows = dialog.getByRole('list', { name: 'Rows with errors' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(AssessmentMessage.quoteBroken);
  await expect(rows.nth(1)).toContainText(`Line 2 · 99999999 · 11`);
  await expect(rows.nth(1)).toContainText(AssessmentMessage.unknownStudent);
  await snap(page, 'assessments-csv-errors-390');
  await expectAccessible(page, 'the CSV preview with errors at 390 px');
  await page.setViewportSize({ width: 320, height: 640 });
  await expectAccessible(page, 'the CSV preview with errors at 320 px');
  // Rows past the box's edge are reached from the keyboard: the box takes the focus and scrolls.
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'marks.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(Array.from({ length: 12 }, (_, i) => `${99999000 + i},5`).join('\n')),
  });
  await expect(rows).toHaveCount(12);
  await expectAccessible(page, 'a long CSV preview with errors at 320 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(dialog.getByRole('table', { name: 'Rows with errors' }).getByRole('row')).toHaveCount(13);
  await expectAccessible(page, 'a long CSV preview with errors at 1280 px');
  await page.setViewportSize({ width: 320, height: 640 });
  await dialog.getByLabel('CSV file').setInputFiles(WORKBOOK);
  await expect(dialog.getByText(AssessmentMessage.notCsv)).toBeVisible();
  await expect(rows).toHaveCount(0);
  // A good file lists its rows too, each with the student's name.
  const pupil = await createStudent(request, { grade: 6, board: 'State' });
  const listed = await apiCall(request, 'GET', `/api/users?q=${encodeURIComponent(pupil.email)}`, undefined, token);
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'marks.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`enrollment id,marks\n${listed.body[0].id},absent\n`),
  });
  const good = dialog.getByRole('list', { name: 'Rows to save' }).getByRole('listitem');
  await expect(good).toHaveCount(1);
  await expect(good.first()).toContainText(`Line 2 · ${listed.body[0].id} · absent`);
  await expect(good.first()).toContainText(pupil.fullname);
  await snap(page, 'assessments-csv-good-320');
  await expectAccessible(page, 'the CSV preview of a good file at 320 px');
});

test("on a phone a row's problem is listed above the grid, whose Problem column is off-screen", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  await createStudent(request, { fullname: `Phone ${run}`, grade: 6, board: 'ICSE' });
  const a = await createAssessment(request, token, {
    grade: 6,
    board: 'ICSE',
    subject: 'English',
    title: `Phone marks ${run}`,
    date: '2026-11-03',
    maxMarks: 10,
  });
  await page.setViewportSize({ width: 320, height: 720 });
  await page.goto(`/admin/assessments?marks=${a.objectId}`);
  await searchMarks(page, `Phone ${run}`);
  const cell = page.getByRole('grid').getByRole('row').nth(1).locator('[data-field="value"]');
  await cell.click();
  await page.keyboard.type('11');
  await page.keyboard.press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: 'needs attention' });
  await expect(alert.getByRole('listitem')).toHaveText([
    new RegExp(`^Phone ${run} \\(\\d+\\): Marks must be from 0 to 10 in steps of 0\\.5, or absent$`),
  ]);
  await expect(alert).toBeInViewport();
  await snap(page, 'marks-problem-320');
  await expectAccessible(page, 'the marks grid with a problem at 320 px');
});

test('a student moved to another batch or deactivated stays with the marks given before, shown as such', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  const mover = await createStudent(request, { fullname: `Mover ${run}`, grade: 5, board: 'ICSE' });
  const leaver = await createStudent(request, { fullname: `Leaver ${run}`, grade: 5, board: 'ICSE' });
  const a = await createAssessment(request, token, {
    grade: 5,
    board: 'ICSE',
    subject: 'English',
    title: `Before the move ${run}`,
    date: '2026-11-02',
    maxMarks: 10,
  });
  const marksOf = `/api/assessments/${a.objectId}/marks`;
  const listed = await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(`Mover ${run}`)}`, undefined, token);
  const [row] = listed.body as { id: number }[];
  const [leaverRow] = (
    await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(`Leaver ${run}`)}`, undefined, token)
  ).body as { id: number }[];
  const given = [
    { id: row!.id, value: '7' },
    { id: leaverRow!.id, value: '8' },
  ];
  expect((await apiCall(request, 'PUT', marksOf, { rows: given }, token)).status).toBe(200);
  expect((await apiCall(request, 'PUT', `/api/users/${mover.objectId}`, { grade: 6 }, token)).status).toBe(200);
  const off = await apiCall(request, 'PUT', `/api/users/${leaver.objectId}/status`, { status: 'deactivated' }, token);
  expect(off.status).toBe(200);

  await page.goto(`/admin/assessments?marks=${a.objectId}`);
  await searchMarks(page, `Mover ${run}`);
  // The search has applied: the header row and the mover's alone.
  await expect(page.getByRole('grid').getByRole('row')).toHaveCount(2);
  const moved = page.getByRole('row', { name: new RegExp(`Mover ${run}`) });
  await expect(moved).toContainText('Now in 6th ICSE');
  await expect(moved.getByRole('gridcell', { name: '7', exact: true })).toBeVisible();
  await snap(page, 'marks-moved-1280');
  await searchMarks(page, `Leaver ${run}`);
  const left = page.getByRole('row', { name: new RegExp(`Leaver ${run}`) });
  await expect(left).toContainText(MarksText.deactivated);
  await expect(left.getByRole('gridcell', { name: '8', exact: true })).toBeVisible();

  // On a phone the note sits under the name, on the screen (the Problem column is off it).
  await page.setViewportSize({ width: 320, height: 720 });
  const nameCell = left.locator('[data-field="fullname"]');
  await expect(nameCell).toContainText(`Leaver ${run}${MarksText.deactivatedShort}`);
  await nameCell.scrollIntoViewIfNeeded();
  const note = nameCell.getByText(MarksText.deactivatedShort, { exact: true });
  await expect(note).toBeInViewport({ ratio: 1 });
  // Whole, not cut short by an ellipsis.
  expect(await note.evaluate((line) => line.scrollWidth - line.clientWidth)).toBe(0);
  await searchMarks(page, `Mover ${run}`);
  const movedNote = moved.locator('[data-field="fullname"]').getByText('Now in 6th ICSE', { exact: true });
  await movedNote.scrollIntoViewIfNeeded();
  await expect(movedNote).toBeInViewport({ ratio: 1 });
  expect(await movedNote.evaluate((line) => line.scrollWidth - line.clientWidth)).toBe(0);
  await snap(page, 'marks-moved-320');
  await expectAccessible(page, 'the marks grid with a moved student at 320 px');
});

test('Absent pressed twice gives the saved mark back; marks typed while a save runs stay unsaved', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  await createStudent(request, { fullname: `Slip ${run} A`, grade: 4, board: 'State' });
  await createStudent(request, { fullname: `Slip ${run} B`, grade: 4, board: 'State' });
  const a = await createAssessment(request, token, {
    grade: 4,
    board: 'State',
    subject: 'Hindi',
    title: `Slips ${run}`,
    date: '2026-11-10',
    maxMarks: 10,
  });
  const marksOf = `/api/assessments/${a.objectId}/marks`;
  const listed = async () =>
    (
      (await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(`Slip ${run}`)}`, undefined, token)).body as {
        fullname: string;
        value: string;
      }[]
    ).map((r) => [r.fullname, r.value]);
  const first = (await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(`Slip ${run} A`)}`, undefined, token))
    .body as { id: number }[];
  expect((await apiCall(request, 'PUT', marksOf, { rows: [{ id: first[0]!.id, value: '7' }] }, token)).status).toBe(
    200,
  );

  await page.goto(`/admin/assessments?marks=${a.objectId}`);
  await searchMarks(page, `Slip ${run}`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(3);
  const marksCell = (row: number) => grid.getByRole('row').nth(row).locator('[data-field="value"]');
  await expect(marksCell(1)).toHaveText('7');

  // A slip on Absent, undone by pressing it again: the saved 7 is back, nothing to save.
  const absentA = page.getByRole('button', { name: `Slip ${run} A absent` });
  await absentA.click();
  await expect(marksCell(1)).toHaveText('absent');
  await expect(absentA).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
  await absentA.click();
  await expect(marksCell(1)).toHaveText('7');
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();

  // From the keyboard: Escape on a cell already entered gives its saved mark back; Space presses Absent.
  await marksCell(1).click();
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await expect(marksCell(1)).toHaveText('3');
  await page.keyboard.press('ArrowUp');
  await expect(marksCell(1)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(marksCell(1)).toHaveText('7');
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(absentA).toHaveAttribute('aria-pressed', 'true');
  await expect(marksCell(1)).toHaveText('absent');
  await page.keyboard.press('Space');
  await expect(marksCell(1)).toHaveText('7');

  // A save held on its way: what is typed meanwhile is not taken for saved.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${marksOf}`, async (route) => {
    if (route.request().method() === 'PUT') await held;
    await route.continue();
  });
  await marksCell(1).click();
  await page.keyboard.type('8');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await marksCell(2).click();
  await page.keyboard.type('6');
  await page.keyboard.press('Enter');
  release();
  await expectToast(page, 'Saved 1 mark');
  await expect(marksCell(1)).toHaveText('8');
  await expect(marksCell(2)).toHaveText('6');
  await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
  expect(await listed()).toEqual([
    [`Slip ${run} A`, '8'],
    [`Slip ${run} B`, ''],
  ]);
  await page.unroute(`**${marksOf}`);
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expectToast(page, 'Saved 1 mark');
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();
  expect(await listed()).toEqual([
    [`Slip ${run} A`, '8'],
    [`Slip ${run} B`, '6'],
  ]);
});

test("an edit saves only what it changed: another admin's change meanwhile to another field stays", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  const title = `Stale form ${run}`;
  const created = await createAssessment(request, token, {
    grade: 5,
    board: 'ICSE',
    subject: 'Science',
    title,
    date: todayAtCentre(),
    maxMarks: 20,
  });
  await page.goto('/admin/assessments');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit assessment' });
  await expect(dialog.getByLabel('Maximum marks')).toHaveValue('20');
  // Another admin changes the subject while this form is open.
  const other = await apiCall(request, 'PUT', `/api/assessments/${created.objectId}`, { subject: 'English' }, token);
  expect(other.status).toBe(200);
  await dialog.getByLabel('Maximum marks').fill('25');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Assessment saved');
  const stored = await apiCall(request, 'GET', `/api/assessments/${created.objectId}`, undefined, token);
  expect(stored.body).toMatchObject({ subject: 'English', maxMarks: 25, title });
  // The list shows the stored assessment, both changes.
  await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText('English');
});

test('the list tells the admin which average the students see while it is an earlier one', async ({
  adminPage: page,
  request,
}) => {
  const token = await adminToken(request);
  const run = tag();
  const ids: number[] = [];
  for (let i = 0; i < 6; i++) {
    const student = await createStudent(request, { grade: 6, board: 'State' });
    ids.push(await enrollmentIdOf(request, token, student.email));
  }
  const title = `Re-sit ${run}`;
  const created = await createAssessment(request, token, {
    grade: 6,
    board: 'State',
    subject: 'Science',
    title,
    date: todayAtCentre(),
    maxMarks: 20,
  });
  const marks = (rows: { id: number; value: string }[]) =>
    apiCall(request, 'PUT', `/api/assessments/${created.objectId}/marks`, { rows }, token);
  await marks(ids.map((id, i) => ({ id, value: i < 5 ? '10' : 'absent' })));
  await apiCall(request, 'POST', `/api/assessments/${created.objectId}/publish`, undefined, token);
  // The absent student's re-sit, entered after publishing.
  await marks([{ id: ids[5]!, value: '20' }]);

  await page.goto('/admin/assessments');
  await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText('11.7 (6 students), students see 10');
  await snap(page, 'assessments-students-see-1280');
  await page.setViewportSize({ width: 390, height: 800 });
  const card = page.getByRole('list', { name: 'Assessments' }).getByRole('listitem').filter({ hasText: title });
  await expect(card).toContainText('average 11.7 (6 students), students see 10');
  await snap(page, 'assessments-students-see-390');
  // The marks' own panel says it too, and follows a later correction.
  await card.getByRole('button', { name: `Marks of ${title}` }).click();
  const panel = page.getByRole('region', { name: `Marks: Science, ${title}` });
  await expect(panel).toContainText('Average 11.7 (6 students), students see 10');
  await snap(page, 'marks-students-see-390');
  await marks([{ id: ids[5]!, value: '14' }]);
  await page.reload();
  await expect(panel).toContainText('Average 10.7 (6 students), students see 10');
  // Saved in the panel while the list shows other assessments: the panel reads its own again.
  await chooseOption(page, 'Status', 'Drafts');
  await expect(card).toHaveCount(0);
  const resit = panel
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell', { name: String(ids[5]), exact: true }) });
  await resit.locator('[data-field="value"]').click();
  await page.keyboard.type('20');
  await page.keyboard.press('Enter');
  await panel.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(panel).toContainText('Average 11.7 (6 students), students see 10');
});

test('a mark still being typed counts as unsaved: Back asks first, and Save takes it', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const fullname = `Typing ${run}`;
  const { token, created } = await draftWithStudent(request, {
    fullname,
    assessment: { grade: 2, board: 'ICSE', subject: 'English', title: `Typing ${run}` },
  });
  // Within the site from the dashboard, so that Back stays in the page (a link's click would close the cell).
  await page.getByRole('link', { name: 'Assessments' }).click();
  await chooseOption(page, 'Status', 'Drafts');
  await chooseOption(page, 'Grade', '2nd');
  await page.getByRole('button', { name: `Marks of Typing ${run}` }).click();
  await searchMarks(page, fullname);
  const cell = page.getByRole('grid').getByRole('row').nth(1).locator('[data-field="value"]');
  await cell.click();
  // Typed, not entered: the cell is still open.
  await page.keyboard.type('6.5');
  await expect(cell.locator('input')).toHaveValue('6.5');
  await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
  await page.goBack();
  const leaving = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leaving).toContainText(MarksText.unsaved(1));
  await leaving.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(new RegExp(`marks=${created.objectId}`));

  await cell.click();
  await page.keyboard.type('7');
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expectToast(page, 'Saved 1 mark');
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();
  await expect(cell).toHaveText('7');
  const marks = await apiCall(
    request,
    'GET',
    `/api/assessments/${created.objectId}/marks?q=${encodeURIComponent(fullname)}`,
    undefined,
    token,
  );
  expect(marks.body.map((r: { value: string }) => r.value)).toEqual(['7']);
});

test("a CSV import wins over a mark typed before it for the same student; another student's typed mark stays", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  const a = await createStudent(request, { fullname: `Import ${run} A`, grade: 3, board: 'CBSE' });
  const b = await createStudent(request, { fullname: `Import ${run} B`, grade: 3, board: 'CBSE' });
  const created = await createAssessment(request, token, {
    grade: 3,
    board: 'CBSE',
    subject: 'Science',
    title: `Import ${run}`,
    date: '2026-11-20',
    maxMarks: 10,
  });
  const idA = await enrollmentIdOf(request, token, a.email);
  const idB = await enrollmentIdOf(request, token, b.email);
  await page.goto(`/admin/assessments?marks=${created.objectId}`);
  await searchMarks(page, `Import ${run}`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(3);
  const marksCell = (row: number) => grid.getByRole('row').nth(row).locator('[data-field="value"]');
  for (const [row, mark] of [
    [1, '2'],
    [2, '3'],
  ] as const) {
    await marksCell(row).click();
    await page.keyboard.type(mark);
    await page.keyboard.press('Enter');
  }
  await expect(page.getByRole('button', { name: 'Save 2 changes' })).toBeEnabled();

  await page.getByRole('button', { name: 'Import CSV' }).click();
  const csvDialog = page.getByRole('dialog', { name: 'Import marks from CSV' });
  await csvDialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'marks.csv', mimeType: 'text/csv', buffer: Buffer.from(`${idA},9\n${idB},\n`) });
  await csvDialog.getByRole('button', { name: 'Save 1 mark' }).click();
  await expectToast(page, 'Imported 1 mark');
  // A's imported 9 shows and is not overwritten by the 2 typed before; B's blank row left B's 3 to save.
  await expect(marksCell(1)).toHaveText('9');
  await expect(marksCell(2)).toHaveText('3');
  await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expectToast(page, 'Saved 1 mark');
  const marks = await apiCall(
    request,
    'GET',
    `/api/assessments/${created.objectId}/marks?q=${encodeURIComponent(`Import ${run}`)}`,
    undefined,
    token,
  );
  expect(marks.body.map((r: { fullname: string; value: string }) => [r.fullname, r.value])).toEqual([
    [`Import ${run} A`, '9'],
    [`Import ${run} B`, '3'],
  ]);
});

test("an edit of a draft's grade shows the new batch's students in its open marks", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const token = await adminToken(request);
  await createStudent(request, { fullname: `Moved ${run} fifth`, grade: 5, board: 'State' });
  await createStudent(request, { fullname: `Moved ${run} sixth`, grade: 6, board: 'State' });
  const title = `Batch ${run}`;
  const created = await createAssessment(request, token, {
    grade: 5,
    board: 'State',
    subject: 'Mathematics',
    title,
    date: '2026-11-20',
    maxMarks: 10,
  });
  await page.goto(`/admin/assessments?marks=${created.objectId}`);
  await searchMarks(page, `Moved ${run}`);
  const rows = page.getByRole('grid').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(`Moved ${run} fifth`);

  await chooseOption(page, 'Status', 'Drafts');
  await chooseOption(page, 'Grade', '5th');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit assessment' });
  await chooseOption(page, 'Grade', '6th', dialog);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  // The panel stays open (the list, filtered to 5th, no longer has it) with the new batch.
  await expect(page.getByRole('region', { name: `Marks: Mathematics, ${title}` })).toContainText('6th State');
  await searchMarks(page, `Moved ${run}`);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(`Moved ${run} sixth`);
  await expect(page.getByRole('grid').getByText(/^Now in/)).toHaveCount(0);
});

test('while marks wait unsaved and the admin is at the page, the session is used every 5 minutes; not once they leave it', async ({
  adminPage: page,
  request,
}) => {
  await page.clock.install();
  const run = tag();
  const { cell } = await typeUnsavedMark(page, request, {
    fullname: `Kept ${run}`,
    assessment: { grade: 7, board: 'ICSE', subject: 'Hindi', title: `Kept ${run}` },
    mark: '4',
  });
  await expect(cell).toHaveText('4');
  let uses = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/admin/me') uses += 1;
  });
  // The mark was typed just now: the check at 5 minutes uses the session.
  await page.clock.runFor('05:01');
  await expect.poll(() => uses).toBe(1);
  // A key pressed then: the checks at 10 and 15 minutes use it too (the last press under 10
  // minutes before); from 20 minutes on, nobody is at the page and it is left to end.
  await page.keyboard.press('Shift');
  await page.clock.runFor('30:00');
  await expect.poll(() => uses).toBe(3);
  await page.clock.runFor('10:00');
  // A request sent after the clock has run: once it is seen, so is any the page sent before it.
  const barrier = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/health');
  await page.evaluate("fetch('/api/health')");
  await barrier;
  expect(uses).toBe(3);
});

test.describe('on a touch phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test('a tap on a marks cell opens it for typing', async ({ adminPage: page, request }) => {
    const run = tag();
    const fullname = `Tapped ${run}`;
    const { created } = await draftWithStudent(request, {
      fullname,
      assessment: { grade: 8, board: 'CBSE', subject: 'English', title: `Tap ${run}` },
    });
    const cell = await openMarksOf(page, created, fullname);
    await cell.tap();
    await expect(cell.locator('input')).toBeFocused();
    await page.keyboard.type('5');
    // Typed and not entered: already a change (Back would ask).
    await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
    await snap(page, 'assessments-tapped-cell-390');
    await page.keyboard.press('Enter');
    await expect(cell).toHaveText('5');
    await expect(page.getByRole('button', { name: 'Save 1 change' })).toBeEnabled();
  });
});

test("a mark someone else saved after the grid showed it is not overwritten: the row says so, and a second Save stores the admin's", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const { cell, listed } = await refusedAsSavedMeanwhile(page, request, {
    fullname: `Clash ${run}`,
    assessment: { grade: 6, board: 'CBSE', subject: 'Science', title: `Clash ${run}` },
    mine: '8',
    theirs: '3',
  });
  await expectToast(page, `0 saved; ${MarksText.needAttention(1)}`);
  await expect(page.getByRole('grid').getByText(AssessmentMessage.markChangedMeanwhile('3'))).toBeVisible();
  await expect(cell).toHaveText('8');
  expect((await listed()).value).toBe('3');
  await snap(page, 'assessments-saved-meanwhile-1280');
  await expectAccessible(page, 'a row refused as saved meanwhile, at 1280 px');
  // On a phone the row's problem is listed above the grid.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('alert').filter({ hasText: AssessmentMessage.markChangedMeanwhile('3') })).toBeVisible();
  // The grid lays its rows out again for the new width before the picture.
  await cell.scrollIntoViewIfNeeded();
  await expect(cell).toBeVisible();
  await snap(page, 'assessments-saved-meanwhile-390');
  await expectAccessible(page, 'a row refused as saved meanwhile, at 390 px');
  // Seen and saved again: the admin's 8 replaces the 3 they have now been shown.
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expectToast(page, 'Saved 1 mark');
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();
  expect((await listed()).value).toBe('8');
});

test('a change typed at once after a save is checked against the marks just saved, not the table before it', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const fullname = `Again ${run}`;
  const { token, created, cell } = await typeUnsavedMark(page, request, {
    fullname,
    assessment: { grade: 9, board: 'ICSE', subject: 'Mathematics', title: `Again ${run}` },
    mark: '7',
  });
  // The table's reload after the save is held: the next change is typed before it comes.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/assessments/${created.objectId}/marks?*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expectToast(page, 'Saved 1 mark');
  // From the keyboard: the loading grid's overlay takes pointer presses.
  await cell.focus();
  await page.keyboard.type('9');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expectToast(page, 'Saved 1 mark');
  release();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeDisabled();
  const listed = await apiCall(
    request,
    'GET',
    `/api/assessments/${created.objectId}/marks?q=${encodeURIComponent(fullname)}`,
    undefined,
    token,
  );
  expect(listed.body.map((r: { value: string }) => r.value)).toEqual(['9']);
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 700 } });

  test('a row refused as saved meanwhile is listed above the grid, and axe finds nothing to fault', async ({
    adminPage: page,
    request,
  }) => {
    const run = tag();
    const { cell } = await refusedAsSavedMeanwhile(page, request, {
      fullname: `Narrow ${run}`,
      assessment: { grade: 5, board: 'ICSE', subject: 'Hindi', title: `Narrow ${run}` },
      mine: '6',
      theirs: '2',
    });
    await expect(
      page.getByRole('alert').filter({ hasText: AssessmentMessage.markChangedMeanwhile('2') }),
    ).toBeVisible();
    await expect(cell).toHaveText('6');
    await snap(page, 'assessments-saved-meanwhile-320');
    await expectAccessible(page, 'a row refused as saved meanwhile, at 320 px');
  });
});

test('a page narrowed to a phone after a refusal keeps the grid one tab stop, and axe finds nothing to fault', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const { cell } = await refusedAsSavedMeanwhile(page, request, {
    fullname: `Narrowed ${run}`,
    assessment: { grade: 5, board: 'ICSE', subject: 'Hindi', title: `Narrowed ${run}` },
    mine: '6',
    theirs: '2',
  });
  const refusal = AssessmentMessage.markChangedMeanwhile('2');
  await expect(page.getByText(refusal)).toBeVisible();
  // A tablet turned, a window narrowed: the phone's layout (its own headers, the refusal
  // listed above the grid), and the grid still has the one cell Tab reaches it by.
  const tabStops = page.getByRole('grid').locator('[role="gridcell"][tabindex="0"]');
  await expect(tabStops).toHaveCount(1);
  for (const [width, height] of [
    [390, 800],
    [320, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(page.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'ID', exact: true })).toBeVisible();
    await expect(tabStops).toHaveCount(1);
    await expect(tabStops).toHaveAttribute('data-field', 'value');
    await expect(cell).toHaveText('6');
    await expectAccessible(page, `a row refused as saved meanwhile, the page narrowed to ${width} px`);
  }
});

test('marks that did not load say so, not "no students", and Try again loads them', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const fullname = `Unloaded ${run}`;
  const { created } = await draftWithStudent(request, {
    fullname,
    assessment: { grade: 8, board: 'ICSE', subject: 'Science', title: `Unloaded ${run}` },
  });
  let down = true;
  await page.route(new RegExp(`/api/assessments/${created.objectId}/marks\\?`), (route) =>
    down
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":3503,"error":"Try again"}' })
      : route.fallback(),
  );
  await page.goto(`/admin/assessments?marks=${created.objectId}`);
  await expect(page.getByRole('status').filter({ hasText: 'The students could not be loaded.' })).toBeVisible();
  await expect(page.getByText('This batch has no students yet')).toHaveCount(0);
  await expectAccessible(page, 'marks that did not load');
  down = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await searchMarks(page, fullname);
  await expect(page.getByRole('grid').getByRole('row')).toHaveCount(2);
  await expect(page.getByText('could not be loaded')).toHaveCount(0);
});

test("a row refused on a save made from another search is listed above the grid, with the student's name", async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const first = `Elsewhere ${run} A`;
  const second = `Elsewhere ${run} B`;
  await createStudent(request, { fullname: second, grade: 1, board: 'CBSE' });
  const { token, created, cell } = await typeUnsavedMark(page, request, {
    fullname: first,
    assessment: { grade: 1, board: 'CBSE', subject: 'English', title: `Elsewhere ${run}` },
    mark: '6',
  });
  const marksOf = `/api/assessments/${created.objectId}/marks`;
  const firstRow = (
    (await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(first)}`, undefined, token)).body as {
      id: number;
    }[]
  )[0]!;
  // Another admin saves the first student's mark meanwhile.
  await apiCall(request, 'PUT', marksOf, { rows: [{ id: firstRow.id, value: '2' }] }, token);
  // The grid now shows the second student only; the admin types theirs and saves both.
  await searchMarks(page, second);
  await cell.click();
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save 2 changes' }).click();
  const alert = page.getByRole('alert').filter({ hasText: '1 row needs attention' });
  await expect(alert).toContainText(`${first} (${firstRow.id}): ${AssessmentMessage.markChangedMeanwhile('2')}`);
});

test('a CSV import refused after its preview shows the rows that went bad meanwhile, and does not offer Save', async ({
  adminPage: page,
  request,
}) => {
  const run = tag();
  const fullname = `Lowered ${run}`;
  const { token, created } = await draftWithStudent(request, {
    fullname,
    assessment: { grade: 9, board: 'ICSE', subject: 'Mathematics', title: `Lowered ${run}` },
  });
  const marksOf = `/api/assessments/${created.objectId}/marks`;
  const id = (await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(fullname)}`, undefined, token)).body[0]
    .id as number;
  await page.goto(`/admin/assessments?marks=${created.objectId}`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const csvDialog = page.getByRole('dialog', { name: 'Import marks from CSV' });
  await csvDialog.getByLabel('CSV file').setInputFiles({
    name: 'marks.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`enrollment id,marks\n${id},9\n`),
  });
  await expect(csvDialog.getByText('The row is good.')).toBeVisible();
  // Another admin lowers the maximum to 5 meanwhile: 9 is now out of range.
  expect((await apiCall(request, 'PUT', `/api/assessments/${created.objectId}`, { maxMarks: 5 }, token)).status).toBe(
    200,
  );
  await csvDialog.getByRole('button', { name: 'Save 1 mark' }).click();
  await expect(csvDialog.getByText('1 of 1 row has an error. Fix it in the file and choose it again.')).toBeVisible();
  await expect(csvDialog.getByRole('button', { name: /^Save/ })).toBeDisabled();
  expect(
    (await apiCall(request, 'GET', `${marksOf}?q=${encodeURIComponent(fullname)}`, undefined, token)).body[0].value,
  ).toBe('');
});
