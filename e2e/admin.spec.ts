// The administrator's side: login, the students table, server-side search,
// editing a student in a dialog (PUT /api/users/:objectId) and logout.

import {
  admin,
  adminToken,
  apiCall,
  chooseOption,
  createStudent,
  expect,
  expectAccessible,
  expectToast,
  localItem,
  searchStudents,
  snap,
  test,
} from './fixtures.ts';

const COLUMNS = ['ID', 'Full Name', 'Gender', 'Mobile', 'Email', 'Date of Birth', 'Board', 'Grade', 'Edit', 'Tools'];

test.describe('admin', () => {
  test('/admindashborad without a token goes to /adminlogin', async ({ page }) => {
    await page.goto('/admindashborad');
    await expect(page).toHaveURL(/\/adminlogin$/);
    await expect(page.getByRole('heading', { name: 'Manage Student Records' })).toBeVisible();
  });

  test('a wrong password shows an error', async ({ page }) => {
    await page.goto('/adminlogin');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(`${admin.password}-wrong`);
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast(page, 'Invalid email or password');
    await expect(page).toHaveURL(/\/adminlogin$/);
    expect(await localItem(page, 'adminToken')).toBeNull();
  });

  test('logs in, sees the table, finds a student and logs out', async ({ page }) => {
    // The one test that logs in through the form; every other admin test starts logged in (adminPage).
    await page.goto('/adminlogin');
    await expect(page.getByRole('heading', { name: 'Manage Student Records' })).toBeVisible();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/admindashborad$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'All Registered Students - Enrollment Data' }),
    ).toBeVisible();
    await expect(page.getByText(`Welcome, ${admin.name}`)).toBeVisible();
    const grid = page.getByRole('grid', { name: 'Registered students' });
    await expect(grid).toBeVisible();
    const headers = grid.getByRole('columnheader');
    await expect(headers).toHaveText(COLUMNS);

    // With a token, the login page and the misspelt alias both lead to the dashboard.
    await page.goto('/adminlogin');
    await expect(page).toHaveURL(/\/admindashborad$/);
    await page.goto('/admindashboard');
    await expect(page).toHaveURL(/\/admindashborad$/);
    await expect(page.getByText(`Welcome, ${admin.name}`)).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expectToast(page, 'Logged out successfully');
    await expect(page).toHaveURL(/\/adminlogin$/);
    expect(await localItem(page, 'adminToken')).toBeNull();
    await page.goto('/admindashborad');
    await expect(page).toHaveURL(/\/adminlogin$/);
  });

  test("searches by name and edits a student's grade", async ({ adminPage: page, request }) => {
    const first = await createStudent(request, { grade: 4 });
    const second = await createStudent(request, { grade: 5, board: 'ICSE' });
    const grid = page.getByRole('grid', { name: 'Registered students' });
    await expect(grid).toBeVisible();

    await page.getByLabel('Search').fill(first.fullname);
    // The row is found by its key (objectId): while it is edited, its cells hold inputs, not text.
    const row = grid.locator(`[role="row"][data-id="${first.objectId}"]`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(first.email);
    await expect(grid.getByRole('row').filter({ hasText: second.email })).toHaveCount(0);
    // Only the header row and the one found.
    await expect(grid.getByRole('row')).toHaveCount(2);
    await expect(row.getByRole('gridcell')).toHaveText([
      /^\d+$/,
      first.fullname,
      first.gender,
      first.mobile,
      first.email,
      first.dob.split('-').reverse().join('/'),
      first.board,
      '4th',
      '',
      // Tools: icon buttons only.
      '',
    ]);
    await snap(page, 'admin-search');

    // Keyboard only: Edit opens a labelled dialog, Enter in a field saves it.
    const editButton = row.getByRole('button', { name: `Edit ${first.fullname}` });
    await editButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: new RegExp(`^Edit ${first.fullname}`) });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Grade')).toHaveValue('4');
    await dialog.getByLabel('Grade').selectOption({ label: '7th' });
    await snap(page, 'admin-editing');
    await dialog.getByLabel('Mobile').press('Enter');
    await expectToast(page, 'Student updated');
    await expect(dialog).toBeHidden();
    const gradeCell = row.locator('[data-field="grade"]');
    await expect(gradeCell).toHaveText('7th');
    await expect(editButton).toBeFocused();
    await expect(row.locator('[data-field="email"]')).toHaveText(first.email);

    // Stored on the server ...
    const token = await adminToken(request);
    const found = await apiCall(request, 'GET', `/api/users?q=${encodeURIComponent(first.email)}`, undefined, token);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({
      objectId: first.objectId,
      grade: 7,
      fullname: first.fullname,
      email: first.email,
      mobile: first.mobile,
      dob: first.dob,
      gender: first.gender,
      board: first.board,
    });
    // ... the other student untouched ...
    const other = await apiCall(request, 'GET', `/api/users?q=${encodeURIComponent(second.email)}`, undefined, token);
    expect(other.body[0]).toMatchObject({ objectId: second.objectId, grade: 5 });

    // ... and shown after a reload.
    await page.reload();
    await page.getByLabel('Search').fill(first.email);
    const reloaded = grid.getByRole('row').filter({ hasText: first.email });
    await expect(reloaded).toHaveCount(1);
    await expect(reloaded.locator('[data-field="grade"]')).toHaveText('7th');
  });

  test('on a phone the table keeps every column and scrolls sideways inside its card', async ({
    adminPage: page,
    request,
  }) => {
    const student = await createStudent(request);
    const grid = page.getByRole('grid', { name: 'Registered students' });
    await searchStudents(page, student.email);
    const row = grid.locator(`[role="row"][data-id="${student.objectId}"]`);
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await expect(row).toContainText(student.email);
      // The seed's columns; the Tools are in the student's editor on a phone.
      await expect(grid.getByRole('columnheader')).toHaveText(COLUMNS.filter((column) => column !== 'Tools'));
      expect(await page.evaluate('document.documentElement.scrollWidth'), 'the page scrolls sideways').toBe(width);
      const scroller = grid.locator('.MuiDataGrid-virtualScroller');
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table scrolls sideways').toBe(true);
      // The filters' choices show whole, not cut short ("Act…"), the longest too.
      const wholeChoices = async (status: string) => {
        for (const filter of ['Grade', 'Board', 'Status']) {
          const shown = page.getByRole('combobox', { name: filter });
          expect(await shown.evaluate((el) => el.scrollWidth <= el.clientWidth), `${filter}, ${status}`).toBe(true);
        }
      };
      await wholeChoices('Active');
      await chooseOption(page, 'Grade', '9th');
      await chooseOption(page, 'Status', 'Deactivated');
      await wholeChoices('Deactivated');
      await chooseOption(page, 'Grade', 'All grades');
      await chooseOption(page, 'Status', 'Active');
      await snap(page, `admin-table-${width}`);
      await expectAccessible(page, `the students table at ${width} px`);
    }
    // Edit, the last column, is scrolled to and opens the student's editor.
    await row.getByRole('button', { name: `Edit ${student.fullname}` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`^Edit ${student.fullname}`) });
    await expect(dialog.getByLabel('Email')).toHaveValue(student.email);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test("asks before the phone's Back drops a change typed in the editor; Stay keeps it", async ({
    adminPage: page,
    request,
  }) => {
    const student = await createStudent(request);
    // A page of the site to go back to: the home page, then its Admin Login (signed in: the table).
    await page.getByRole('banner').getByRole('link', { name: /home$/i }).click();
    await page.getByRole('link', { name: 'Admin Login' }).click();
    await expect(page).toHaveURL(/\/admindashborad$/);
    await searchStudents(page, student.email);
    const grid = page.getByRole('grid', { name: 'Registered students' });
    await grid.getByRole('button', { name: `Edit ${student.fullname}` }).click();
    const editor = page.getByRole('dialog', { name: new RegExp(`^Edit ${student.fullname}`) });
    const mobile = editor.getByLabel('Mobile');
    // Armed (its dialog's code fetched) once the editor holds a change.
    const armed = page.waitForResponse(/\/assets\/leave-dialog-[^/]*\.js$/);
    await mobile.fill('9000000001');
    await armed;
    // The phone's back gesture: the page stays, and so does the change, when the admin stays.
    await page.evaluate('history.back()');
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(leave).toContainText(`Your changes to ${student.fullname} are not saved.`);
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(leave).toBeHidden();
    await expect(mobile).toHaveValue('9000000001');
    await expect(page).toHaveURL(/\/admindashborad\?q=/);
    await expect(editor).toBeVisible();
  });

  test("a refused edit shows the server's error and keeps the stored value", async ({ adminPage: page, request }) => {
    const first = await createStudent(request);
    const second = await createStudent(request);
    const grid = page.getByRole('grid', { name: 'Registered students' });
    await searchStudents(page, first.email);
    const row = grid.locator(`[role="row"][data-id="${first.objectId}"]`);
    await expect(row).toContainText(first.email);

    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    const email = dialog.getByLabel('Email');
    await email.fill(second.email);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Email address already registered');
    // Under the field, which has focus; still editing, and Cancel keeps the stored value.
    await expect(email).toHaveAccessibleDescription('Email address already registered');
    await expect(email).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
    await expect(row.locator('[data-field="email"]')).toHaveText(first.email);

    const token = await adminToken(request);
    const found = await apiCall(request, 'GET', `/api/users?q=${encodeURIComponent(first.fullname)}`, undefined, token);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ objectId: first.objectId, email: first.email });
  });

  test('an invalid admin token leads back to the login', async ({ page }) => {
    await page.goto('/adminlogin');
    await page.evaluate(`window.localStorage.setItem('adminToken', 'r:not-a-real-token')`);
    await page.goto('/admindashborad');
    await expect(page).toHaveURL(/\/adminlogin$/);
    expect(await localItem(page, 'adminToken')).toBeNull();
    await expect(page.getByRole('heading', { name: 'Manage Student Records' })).toBeVisible();
  });

  test('a logout in another tab sends this tab to the login too', async ({ adminPage: page }) => {
    await page.getByRole('link', { name: 'Timetable' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Timetable' })).toBeVisible();
    const other = await page.context().newPage();
    await other.goto('/admindashborad');
    await other.getByRole('button', { name: 'Logout' }).click();
    await expectToast(other, 'Logged out successfully');
    await expect(other).toHaveURL(/\/adminlogin$/);
    // This tab follows without being touched, and says nothing more.
    await expect(page).toHaveURL(/\/adminlogin$/);
    await expect(page.getByRole('heading', { name: 'Manage Student Records' })).toBeVisible();
    await expect(page.getByText('Session expired, please login again')).toHaveCount(0);
  });
});
