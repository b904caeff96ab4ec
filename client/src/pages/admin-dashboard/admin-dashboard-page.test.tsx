import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ADMIN_SESSION_KEY, HISTORY_MAX_ENTRIES, MIN_AGE_YEARS, SEARCH_MAX_LENGTH } from '@tc/domain/constants';
import { isoToDisplayDate } from '@tc/domain/dates';
import { STUDENTS_SIGNAL } from '@tc/domain/live';
import { addDays } from '@tc/domain/zoned-time';
import { centreAwayFromHere } from '../../test/centre-zone.ts';
import { RegistrationMessage, UiMessage } from '@tc/domain/messages';
import { ServerMessage } from '@tc/domain/server-messages';
import type { StudentRecord } from '@tc/domain/student';
import { CALL_TIME_LIMIT_MS } from '../../lib/api.ts';
import { currentPath, currentSearch, deferred, mockFetch, renderApp, type MockReply } from '../../test/render-app.tsx';

const students: StudentRecord[] = [
  {
    objectId: 'a1',
    id: 1,
    fullname: 'Riya Sharma',
    gender: 'Daughter',
    mobile: '9876543210',
    email: 'riya@example.com',
    dob: '2015-06-15',
    board: 'CBSE',
    grade: 4,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  {
    objectId: 'b2',
    id: 2,
    fullname: 'Arjun Rao',
    gender: 'Son',
    mobile: '9123456789',
    email: 'arjun@example.com',
    dob: '2013-01-02',
    board: 'State',
    grade: 6,
    createdAt: '2026-01-02T00:00:00.000Z',
  },
];

const signIn = () => window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
/** The live updates' reloads by key, called here as another admin's change would (no socket in these tests). */
const liveReloads = vi.hoisted(() => new Map<string, () => void>());
vi.mock('../../lib/use-live-signal.ts', () => ({
  useLiveSignal: (key: string | null, _token: unknown, reload: () => void) => {
    if (key) liveReloads.set(key, reload);
  },
}));

const asha = () => ({ body: { name: 'Asha Admin', email: 'admin@example.com' } });
const bothStudents = () => ({ body: students, headers: { 'X-Total-Count': '2' } });
const open = () => renderApp('/admindashborad');
/** The page open, its table showing the first student. */
async function openTable() {
  const { user } = open();
  const grid = await screen.findByRole('grid', { name: 'Registered students' }, { timeout: 15000 });
  await within(grid).findByText('Riya Sharma');
  return { user, grid };
}

describe('admin dashboard', () => {
  it('redirects to the admin login without a token', async () => {
    open();
    expect(
      await screen.findByRole('heading', { name: 'Manage Student Records' }, { timeout: 15000 }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/adminlogin');
  });

  it('shows the welcome line and the students of the first page', async () => {
    signIn();
    const profile = deferred<MockReply>();
    const list = deferred<MockReply>();
    const { calls } = mockFetch({ 'GET /api/admin/me': () => profile.promise, 'GET /api/users': () => list.promise });
    open();
    expect(await screen.findByText('Loading user details...', {}, { timeout: 15000 })).toBeInTheDocument();
    // On the grid for the eye (the seed's words, once), and in a status outside it for screen readers.
    expect(await screen.findByText('Loading ...')).toBeInTheDocument();
    expect(await screen.findByText('Loading students ...')).toHaveAttribute('role', 'status');
    profile.resolve({ body: { name: 'Asha Admin', email: 'admin@example.com' } });
    expect(await screen.findByText('Welcome, Asha Admin')).toBeInTheDocument();
    list.resolve({ body: students, headers: { 'X-Total-Count': '42' } });
    const grid = await screen.findByRole('grid', { name: 'Registered students' });
    expect(await within(grid).findByText('Riya Sharma')).toBeInTheDocument();
    for (const header of ['ID', 'Full Name', 'Gender', 'Mobile', 'Email', 'Date of Birth', 'Board', 'Grade', 'Edit']) {
      expect(within(grid).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(within(grid).getByText('15/06/2015')).toBeInTheDocument();
    expect(within(grid).getByText('4th')).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Edit Riya Sharma' })).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Edit Arjun Rao' })).toBeInTheDocument();
    expect(screen.getByText(/of 42/)).toBeInTheDocument();
    const listCall = calls.find((c) => c.path === '/api/users');
    expect(listCall?.headers.Authorization).toBe('Bearer r:admin');
    expect(Object.fromEntries(listCall?.url.searchParams ?? [])).toEqual({ skip: '0', limit: '25' });
  });

  it('welcomes by e-mail when the admin has no name', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/me': () => ({ body: { name: '', email: 'admin@example.com' } }),
      'GET /api/users': () => ({ body: [], headers: { 'X-Total-Count': '0' } }),
    });
    open();
    expect(await screen.findByText('Welcome, admin@example.com', {}, { timeout: 15000 })).toBeInTheDocument();
  });

  it('searches on the server after a pause in typing, and says what it found', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': (_body, url) =>
        url.searchParams.get('q') === 'nobody' ? { body: [], headers: { 'X-Total-Count': '0' } } : bothStudents(),
    });
    const { user } = open();
    await screen.findByText('Welcome, Asha Admin', {}, { timeout: 15000 });
    // Read out by a screen reader: the grid itself says nothing when its rows change.
    expect(await screen.findByText('2 students found', {}, { timeout: 15000 })).toHaveAttribute('role', 'status');
    await user.type(screen.getByLabelText('Search'), 'riya');
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('q') === 'riya')).toBe(true));
    expect(calls.filter((c) => c.path === '/api/users' && c.url.searchParams.get('q')).length).toBe(1);
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'nobody');
    expect(await screen.findByText('No students match')).toHaveAttribute('role', 'status');
  });

  it('keeps the page and its size in the address: opened again there, it shows that page; a new order or search starts from the first', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ body: students, headers: { 'X-Total-Count': '420' } }),
    });
    const lists = () => calls.filter((c) => c.path === '/api/users').map((c) => Object.fromEntries(c.url.searchParams));
    // As a reload or Back from another page finds it.
    const { user } = renderApp('/admindashborad?grade=4&page=2&size=50');
    expect(await screen.findByText(/^101–150 of 420$/, {}, { timeout: 15000 })).toBeInTheDocument();
    expect(lists()).toEqual([{ skip: '100', limit: '50', grade: '4' }]);
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText(/^151–200 of 420$/)).toBeInTheDocument();
    expect(currentSearch()).toBe('?grade=4&page=3&size=50');
    expect(lists().at(-1)).toEqual({ skip: '150', limit: '50', grade: '4' });
    // A new order starts again from the first page, of the same size; so does a search.
    await user.click(screen.getByRole('columnheader', { name: 'Full Name' }));
    await waitFor(() => expect(currentSearch()).toBe('?grade=4&size=50&sort=fullname'));
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(currentSearch()).toBe('?grade=4&size=50&sort=fullname&page=1'));
    await user.type(screen.getByLabelText('Search'), 'riya');
    await waitFor(() => expect(currentSearch()).toBe('?grade=4&size=50&sort=fullname&q=riya'));
    await waitFor(() =>
      expect(lists().at(-1)).toEqual({ skip: '0', limit: '50', grade: '4', q: 'riya', sort: 'fullname' }),
    );
    expect(screen.getByText(/^1–50 of 420$/)).toBeInTheDocument();
  });

  it('opens an address with a page or size it does not offer on the first page of 25', async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/admin/me': asha, 'GET /api/users': bothStudents });
    renderApp('/admindashborad?page=-3&size=1000');
    expect(await screen.findByText('2 students found', {}, { timeout: 15000 })).toBeInTheDocument();
    expect(Object.fromEntries(calls.find((c) => c.path === '/api/users')!.url.searchParams)).toEqual({
      skip: '0',
      limit: '25',
    });
  });

  it('goes from a page past the last (kept in an address from before) to the last page with rows', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      // 52 students: the third page of 25 holds two; the fourth and later none.
      'GET /api/users': (_body, url) =>
        url.searchParams.get('skip') === '50'
          ? { body: students, headers: { 'X-Total-Count': '52' } }
          : { body: [], headers: { 'X-Total-Count': '52' } },
    });
    renderApp('/admindashborad?board=CBSE&page=20');
    const grid = await screen.findByRole('grid', { name: 'Registered students' }, { timeout: 15000 });
    expect(await within(grid).findByText('Riya Sharma')).toBeInTheDocument();
    expect(screen.getByText(/^51–52 of 52$/)).toBeInTheDocument();
    expect(currentSearch()).toBe('?board=CBSE&page=2');
    expect(calls.filter((c) => c.path === '/api/users').map((c) => c.url.searchParams.get('skip'))).toEqual([
      '500',
      '50',
    ]);
  });

  const openEditor = async () => {
    const { user, grid } = await openTable();
    const edit = within(grid).getByRole('button', { name: 'Edit Riya Sharma' });
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Riya Sharma (ID 1)' });
    return { user, grid, edit, dialog };
  };

  it('edits a student in a labelled dialog and saves the changed fields with PUT /api/users/:objectId', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': bothStudents,
      'PUT /api/users/a1': (body) => ({ body: { ...students[0], ...(body as object) } }),
    });
    const { user, grid, edit, dialog } = await openEditor();
    expect(within(dialog).getByLabelText('Gender')).toHaveDisplayValue('Daughter');
    expect(within(dialog).getByLabelText('Email')).toHaveValue('riya@example.com');
    expect(within(dialog).getByLabelText('Date of Birth')).toHaveValue('15/06/2015');
    expect(within(dialog).getByLabelText('Board')).toHaveDisplayValue('CBSE');
    expect(within(dialog).getByLabelText('Grade')).toHaveDisplayValue('4th');
    const mobile = within(dialog).getByLabelText('Mobile');
    expect(mobile).toHaveValue('9876543210');
    await user.clear(mobile);
    await user.type(mobile, '9000000001');
    await user.selectOptions(within(dialog).getByLabelText('Grade'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.studentUpdated));
    // With the changed fields as they were shown: another admin's change meanwhile is refused, not overwritten.
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      mobile: '9000000001',
      grade: 5,
      before: { mobile: '9876543210', grade: 4 },
    });
    expect(await within(grid).findByText('9000000001')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(edit).toHaveFocus());
  });

  it('gives up a save that has no answer within the time limit (a stalled phone connection) and gives the form back', async () => {
    signIn();
    // The calls' time limit, run out when the test says (not after two minutes).
    const limits: AbortController[] = [];
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => {
      const controller = new AbortController();
      limits.push(controller);
      return controller.signal;
    });
    try {
      const { calls } = mockFetch({
        'GET /api/admin/me': asha,
        'GET /api/users': bothStudents,
        'PUT /api/users/a1': () => deferred<MockReply>().promise,
      });
      const { user, dialog } = await openEditor();
      await user.selectOptions(within(dialog).getByLabelText('Grade'), '5');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeInTheDocument();
      const put = calls.findIndex((c) => c.method === 'PUT');
      limits[put]!.abort(new DOMException('The operation timed out.', 'TimeoutError'));
      expect(await within(dialog).findByText(UiMessage.updateFailed)).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Save' })).not.toHaveAttribute('aria-disabled', 'true');
      expect(timeout).toHaveBeenCalledWith(CALL_TIME_LIMIT_MS);
    } finally {
      timeout.mockRestore();
    }
  });

  it("gives the focus to the search when the editor closes after another admin's change took its row away", async () => {
    signIn();
    let deactivated = false;
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () =>
        deactivated ? { body: [students[1]], headers: { 'X-Total-Count': '1' } } : bothStudents(),
    });
    const { user, grid, dialog } = await openEditor();
    // Another admin deactivates Riya: the table reads the view again, without her row.
    deactivated = true;
    act(() => liveReloads.get(STUDENTS_SIGNAL)!());
    await waitFor(() => expect(within(grid).queryByText('Riya Sharma')).toBeNull());
    // The admin closes the editor a while later (past the reload's own care for the focus).
    await new Promise((resolve) => setTimeout(resolve, 500));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByLabelText('Search')).toHaveFocus());
  });

  it('checks the rules before saving and shows a server error under its field', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': bothStudents,
      'PUT /api/users/a1': () => ({
        status: 409,
        body: { error: 'Email address already registered', code: 3033, field: 'email' },
      }),
    });
    const { user, dialog } = await openEditor();
    const mobile = within(dialog).getByLabelText('Mobile');
    await user.clear(mobile);
    await user.type(mobile, '123');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mobile).toHaveAccessibleDescription('Please enter a valid 10-digit mobile number'));
    await waitFor(() => expect(mobile).toHaveFocus());
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.clear(mobile);
    await user.type(mobile, '9876543210');
    const email = within(dialog).getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'arjun@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription('Email address already registered'));
    await waitFor(() => expect(email).toHaveFocus());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("checks a date of birth against today at the centre, where this computer's date is another", async () => {
    const { zone, centreToday, centreAhead } = centreAwayFromHere();
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/admin/centre': () => ({ body: { timeZone: zone } }),
      'GET /api/users': bothStudents,
      'PUT /api/users/a1': (body) => ({ body: { ...students[0], ...(body as object) } }),
    });
    const { user, dialog } = await openEditor();
    await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/centre')).toBe(true));
    // Five today at the centre, by the site's count of years (days / 365.25), is the youngest a
    // student may be. A computer a day behind the centre counts a day short of it; ahead, a
    // child a day short at the centre is five on the computer.
    const youngest = addDays(centreToday, -Math.ceil(MIN_AGE_YEARS * 365.25));
    const dob = centreAhead ? youngest : addDays(youngest, 1);
    const field = within(dialog).getByLabelText('Date of Birth');
    await user.clear(field);
    await user.type(field, isoToDisplayDate(dob));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    if (centreAhead) {
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.studentUpdated));
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ dob });
    } else {
      await waitFor(() => expect(field).toHaveAccessibleDescription(RegistrationMessage.tooYoung));
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    }
  });

  it('closes with Escape without saving, focus back on the Edit button', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': bothStudents,
    });
    const { user, edit, dialog } = await openEditor();
    await user.type(within(dialog).getByLabelText('Mobile'), '1');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(edit).toHaveFocus());
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('on a 401 from the list says the session expired and returns to the admin login', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/me': () => deferred<MockReply>().promise,
      'GET /api/users': () => ({ status: 401, body: { error: 'Session expired, please login again', code: 209 } }),
    });
    open();
    expect(
      await screen.findByRole('heading', { name: 'Manage Student Records' }, { timeout: 15000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.sessionExpired));
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBeNull();
  });

  it('says "Error loading data" when the list fails otherwise', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ status: 500 }),
    });
    open();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData), {
      timeout: 15000,
    });
    expect(currentPath()).toBe('/admindashborad');
  });

  it('takes no longer search than the server runs; a view it refuses says "Error loading data", as the seed has it', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ status: 400, body: { code: 400, error: ServerMessage.searchTooLong } }),
    });
    // A search too long, in an address typed or kept from elsewhere.
    renderApp(`/admindashborad?q=${'a'.repeat(101)}`);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData), {
      timeout: 15000,
    });
    expect(screen.getByLabelText('Search')).toHaveAttribute('maxlength', String(SEARCH_MAX_LENGTH));
  });

  it('never shows the rows of another view as a search that did not come, and loads it on "Try again"', async () => {
    signIn();
    let searchUp = false;
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': (_body, url) => {
        if (!url.searchParams.get('q')) return bothStudents();
        return searchUp
          ? { body: [students[1]], headers: { 'X-Total-Count': '1' } }
          : { status: 503, body: { code: 3503, error: 'Try again' } };
      },
    });
    const { user, grid } = await openTable();
    await user.type(screen.getByLabelText('Search'), 'zz');
    expect(await screen.findByText(UiMessage.studentsNotLoaded, { selector: '[role="status"]' })).toBeInTheDocument();
    // Not the rows of before, as if they were what the search found.
    expect(within(grid).queryByText('Riya Sharma')).not.toBeInTheDocument();
    expect(screen.queryByText('2 students found')).not.toBeInTheDocument();
    searchUp = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await within(grid).findByText(students[1]!.fullname)).toBeInTheDocument();
    expect(await screen.findByText('1 student found')).toBeInTheDocument();
    expect(screen.queryByText(UiMessage.studentsNotLoaded)).not.toBeInTheDocument();
  });

  it('keeps the place of a page that did not come, and says it loads again on "Try again" until it has come', async () => {
    signIn();
    const retried = deferred<MockReply>();
    let nextPage: () => MockReply | Promise<MockReply> = () => ({
      status: 503,
      body: { code: 3503, error: 'Try again' },
    });
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': (_body, url) =>
        url.searchParams.get('skip') === '25' ? nextPage() : { body: students, headers: { 'X-Total-Count': '420' } },
    });
    const { user, grid } = await openTable();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText(UiMessage.studentsNotLoaded, { selector: '[role="status"]' })).toBeInTheDocument();
    // Still on the page that failed: not moved back to the first, which would load in its place
    // (the grid moves off a page past its row count on a timer: given the time to).
    await new Promise((r) => setTimeout(r, 1000));
    expect(currentSearch()).toBe('?page=1');
    const skips = () => calls.filter((c) => c.path === '/api/users').map((c) => c.url.searchParams.get('skip'));
    expect(skips()).toEqual(['0', '25']);
    nextPage = () => retried.promise;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    // While the page loads again, the status says so, and "Try again" has gone.
    expect(
      await screen.findByText('Loading students ...', { selector: '[tabindex="-1"]' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText(UiMessage.studentsNotLoaded)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    retried.resolve({ body: [students[1]], headers: { 'X-Total-Count': '420' } });
    expect(await within(grid).findByText(students[1]!.fullname)).toBeInTheDocument();
    expect(screen.getByText(/^26–50 of 420$/)).toBeInTheDocument();
    expect(skips()).toEqual(['0', '25', '25']);
    // The focus, on the status while it loaded, goes on to the rows that came (not the page's start).
    await waitFor(() => expect(grid).toHaveFocus());
  });

  it('keeps a page from the address whose first answer did not come, and loads that page on "Try again"', async () => {
    signIn();
    let up = false;
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () =>
        up
          ? { body: students, headers: { 'X-Total-Count': '420' } }
          : { status: 503, body: { code: 3503, error: 'Try again' } },
    });
    const { user } = renderApp('/admindashborad?page=3');
    expect(
      await screen.findByText(UiMessage.studentsNotLoaded, { selector: '[role="status"]' }, { timeout: 15000 }),
    ).toBeInTheDocument();
    up = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/^76–100 of 420$/)).toBeInTheDocument();
    // Given the time the grid takes to move to another page (a timer).
    await new Promise((r) => setTimeout(r, 1000));
    expect(currentSearch()).toBe('?page=3');
    expect(calls.filter((c) => c.path === '/api/users').map((c) => c.url.searchParams.get('skip'))).toEqual([
      '75',
      '75',
    ]);
  });

  it('stays on its page while the editor opens and closes over it', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ body: students, headers: { 'X-Total-Count': '420' } }),
    });
    const { user, grid } = await openTable();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText(/^26–50 of 420$/)).toBeInTheDocument();
    await user.click(within(grid).getByRole('button', { name: 'Edit Riya Sharma' }));
    await screen.findByRole('dialog', { name: 'Edit Riya Sharma (ID 1)' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Given the time the grid takes to move to another page (a timer).
    await new Promise((r) => setTimeout(r, 1000));
    expect(screen.getByText(/^26–50 of 420$/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/users').map((c) => c.url.searchParams.get('skip'))).toEqual([
      '0',
      '25',
    ]);
  });

  it('keeps the deactivation question open when the deactivation fails, to be answered again', async () => {
    signIn();
    let answers = 0;
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': bothStudents,
      'PUT /api/users/a1/status': () =>
        ++answers === 1
          ? { status: 503, body: { code: 3503, error: 'The service is busy. Please try again.' } }
          : { body: { ...students[0], status: 'deactivated' } },
    });
    const { user } = open();
    const grid = await screen.findByRole('grid', { name: 'Registered students' }, { timeout: 15000 });
    await user.click(await within(grid).findByRole('button', { name: 'Deactivate Riya Sharma' }));
    const asked = await screen.findByRole('dialog', { name: 'Deactivate Riya Sharma?' });
    await user.click(within(asked).getByRole('button', { name: 'Deactivate' }));
    // Said in the question (a toast behind it would be hidden from screen readers).
    expect(await within(asked).findByRole('alert')).toHaveTextContent('The service is busy. Please try again.');
    await user.click(within(asked).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deactivate Riya Sharma?' })).toBeNull());
    expect(answers).toBe(2);
  });

  it('says in the erasure dialog why the erasure failed, and in the editor why a reactivation did', async () => {
    signIn();
    const deactivated = { ...students[1]!, status: 'deactivated' as const };
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ body: [students[0], deactivated], headers: { 'X-Total-Count': '2' } }),
      'POST /api/users/a1/erase': () => ({
        status: 503,
        body: { code: 3503, error: 'The service is busy. Please try again.' },
      }),
      'PUT /api/users/b2/status': () => ({
        status: 503,
        body: { code: 3503, error: 'The database is away. Please try again.' },
      }),
    });
    const { user } = open();
    const grid = await screen.findByRole('grid', { name: 'Registered students' }, { timeout: 15000 });
    await user.click(await within(grid).findByRole('button', { name: 'Erase personal data of Riya Sharma' }));
    const erase = await screen.findByRole('dialog', { name: 'Erase personal data' });
    await user.type(within(erase).getByLabelText('Type ERASE to confirm'), 'ERASE');
    await user.click(within(erase).getByRole('button', { name: 'Erase' }));
    expect(await within(erase).findByRole('alert')).toHaveTextContent('The service is busy. Please try again.');
    await user.click(within(erase).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The editor is a dialog too: the reactivation's failure is said in it.
    await user.click(within(grid).getByRole('button', { name: 'Edit Arjun Rao' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Arjun Rao (ID 2)' });
    await user.click(within(editor).getByRole('button', { name: 'Reactivate' }));
    expect(await within(editor).findByRole('alert')).toHaveTextContent('The database is away. Please try again.');
  });

  it('says "Error loading data" when the profile fails otherwise, and stops saying "Loading user details..."', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/me': () => ({ status: 500 }),
      'GET /api/users': bothStudents,
    });
    open();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData), {
      timeout: 15000,
    });
    expect(screen.queryByText('Loading user details...')).not.toBeInTheDocument();
    expect(currentPath()).toBe('/admindashborad');
  });

  it('offers "Finish erasure" for an erasure a fault stopped, and runs it without asking to type again', async () => {
    signIn();
    // As the server sends it: the erasure unsets the gender, mobile and date of birth.
    const { gender: _gender, mobile: _mobile, dob: _dob, ...kept } = students[0]!;
    const erased = {
      ...kept,
      fullname: 'Erased student',
      email: 'erased-a1@erased.invalid',
      status: 'deactivated',
      erased: true,
      erasureUnfinished: true,
    } as StudentRecord;
    let finished = false;
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({
        body: [finished ? { ...erased, erasureUnfinished: undefined } : erased],
        headers: { 'X-Total-Count': '1' },
      }),
      'POST /api/users/a1/erase': () => {
        finished = true;
        return { body: { ...erased, erasureUnfinished: undefined } };
      },
    });
    const { user } = open();
    const grid = await screen.findByRole('grid', { name: 'Registered students' }, { timeout: 15000 });
    await user.click(await within(grid).findByRole('button', { name: 'Edit Erased student' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Erased student (ID 1)' });
    // Shown, not offered for change: the server refuses any change to an erased student.
    expect(editor).toHaveTextContent('the record can no longer be changed');
    expect(within(editor).getByLabelText('Email')).toBeDisabled();
    // What is no longer stored shows blank (not the first gender, as if it were stored).
    expect(within(editor).getByLabelText('Gender')).toHaveDisplayValue('');
    expect(within(editor).getByLabelText('Mobile')).toHaveValue('');
    expect(within(editor).getByLabelText('Date of Birth')).toHaveValue('');
    expect(within(editor).getByLabelText('Board')).toHaveDisplayValue('CBSE');
    expect(within(editor).queryByRole('button', { name: 'Save' })).toBeNull();
    const account = within(editor).getByRole('region', { name: 'Account' });
    expect(within(account).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(account).queryByRole('button', { name: 'Reactivate' })).toBeNull();
    await user.click(within(account).getByRole('button', { name: 'Finish erasure' }));
    const confirm = await screen.findByRole('dialog', { name: 'Finish erasure' });
    expect(confirm).toHaveTextContent('a fault stopped the last steps');
    await user.click(within(confirm).getByRole('button', { name: 'Finish erasure' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Erasure finished'));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/users/a1/erase')?.body).toEqual({
      confirm: 'ERASE',
    });
    // The editor closes and the table is read again.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/users')).toHaveLength(2));
  });

  it("says when a student's History holds only the latest changes it can", async () => {
    signIn();
    const entry = (i: number, targetId: string) => ({
      objectId: `e${targetId}${i}`,
      at: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
      adminId: 'ad1',
      adminEmail: 'admin@example.com',
      kind: 'student.update',
      targetClass: '_User',
      targetId,
      changes: [{ field: 'grade', before: '4', after: '5' }],
      state: 'applied',
    });
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': bothStudents,
      'GET /api/users/a1/history': () => ({
        body: Array.from({ length: HISTORY_MAX_ENTRIES }, (_, i) => entry(i, 'a1')),
      }),
      'GET /api/users/b2/history': () => ({ body: [entry(1, 'b2'), entry(2, 'b2')] }),
    });
    const { user } = open();
    const grid = await screen.findByRole('grid', { name: 'Registered students' }, { timeout: 15000 });
    await user.click(await within(grid).findByRole('button', { name: 'History of Riya Sharma' }));
    const full = await screen.findByRole('dialog', { name: 'History of Riya Sharma' });
    expect(await within(full).findByText(AdminToolsMessage.historyCapped, {}, { timeout: 15000 })).toBeVisible();
    expect(AdminToolsMessage.historyCapped).toContain(`latest ${HISTORY_MAX_ENTRIES} changes`);
    await user.click(within(full).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(grid).getByRole('button', { name: 'History of Arjun Rao' }));
    const short = await screen.findByRole('dialog', { name: 'History of Arjun Rao' });
    expect(await within(short).findAllByText('Student edited')).toHaveLength(2);
    expect(within(short).queryByText(AdminToolsMessage.historyCapped)).toBeNull();
  });

  it('exports what the search box says, before the table has searched it', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': bothStudents,
      'GET /api/users/export.csv': () => ({ status: 500, body: { error: 'Internal error', code: 1 } }),
    });
    const { user } = renderApp('/admindashborad?grade=4');
    await screen.findByText('2 students found', {}, { timeout: 15000 });
    await user.type(screen.getByLabelText('Search'), 'Riya');
    // At once, within the pause before the table searches (not the whole grade's children).
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/users/export.csv')).toBe(true));
    const exported = calls.find((c) => c.path === '/api/users/export.csv')!;
    expect(Object.fromEntries(exported.url.searchParams)).toEqual({ grade: '4', q: 'Riya' });
  });

  it('empties the search box when a link takes the search away ("Students" in the menu)', async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/admin/me': asha, 'GET /api/users': bothStudents });
    const { user } = open();
    await screen.findByText('2 students found', {}, { timeout: 15000 });
    await user.type(screen.getByLabelText('Search'), 'riya');
    await waitFor(() => expect(currentSearch()).toBe('?q=riya'));
    await user.click(screen.getByRole('link', { name: 'Students' }));
    await waitFor(() => expect(currentSearch()).toBe(''));
    expect(screen.getByLabelText('Search')).toHaveValue('');
    // And the search is not written back after the pause.
    await new Promise((r) => setTimeout(r, 1000));
    expect(currentSearch()).toBe('');
    expect(
      calls
        .filter((c) => c.path === '/api/users')
        .at(-1)
        ?.url.searchParams.get('q'),
    ).toBeNull();
  });

  it('says why an export was refused (others under way), and that one failed otherwise', async () => {
    signIn();
    let exportReply: MockReply = {
      status: 429,
      headers: { 'Retry-After': '60' },
      body: { error: AdminToolsMessage.exportsBusy, code: 3043 },
    };
    mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ body: students, headers: { 'X-Total-Count': '2' } }),
      'GET /api/users/export.csv': () => exportReply,
    });
    open();
    const exportButton = await screen.findByRole('button', { name: 'Export CSV' });
    exportButton.click();
    expect(await screen.findByText(AdminToolsMessage.exportsBusy)).toBeInTheDocument();
    exportReply = { status: 500, body: { error: 'Internal error', code: 1 } };
    (await screen.findByRole('button', { name: 'Export CSV' })).click();
    expect(await screen.findByText(AdminToolsMessage.exportFailed)).toBeInTheDocument();
    expect(screen.queryByText('Internal error')).not.toBeInTheDocument();
  });

  it('logs out', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/me': asha,
      'GET /api/users': () => ({ body: [], headers: { 'X-Total-Count': '0' } }),
      'POST /api/admin/logout': () => ({ body: { success: true } }),
    });
    const { user } = open();
    await screen.findByText('Welcome, Asha Admin', {}, { timeout: 15000 });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Manage Student Records' })).toBeInTheDocument();
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBeNull();
    expect(calls.find((c) => c.path === '/api/admin/logout')?.headers.Authorization).toBe('Bearer r:admin');
  });
});
