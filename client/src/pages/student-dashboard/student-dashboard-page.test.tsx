import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { STUDENT_SESSION_KEY } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { currentPath, deferred, mockFetch, renderApp, type MockReply } from '../../test/render-app.tsx';
import { studentSession } from '../../lib/session.ts';
import { profile, signIn } from '../../test/student.ts';

/** Says yes in the dialog "Log out of all devices?" asks. */
async function confirmLogOutEverywhere(user: UserEvent) {
  const asked = screen.getByRole('dialog', { name: 'Log out of all devices?' });
  await user.click(within(asked).getByRole('button', { name: 'Log out everywhere' }));
}

describe('student dashboard', () => {
  it('redirects to the login without a session', async () => {
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' })).toBeInTheDocument();
    expect(currentPath()).toBe('/studentlogin');
  });

  it('shows "Loading..." and then the profile, fetched with the bearer token', async () => {
    signIn();
    const reply = deferred<MockReply>();
    const { calls } = mockFetch({ 'GET /api/students/me': () => reply.promise });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Student Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Loading...')).toHaveAttribute('role', 'status');
    // The request goes once the contract table has loaded (lib/api.ts).
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(calls[0]!.headers.Authorization).toBe('Bearer r:token');
    reply.resolve({ body: profile });
    expect(await screen.findByText('Welcome, Riya Sharma')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your Profile' })).toBeInTheDocument();
    const rows: Array<[string, string]> = [
      ['Full Name', 'Riya Sharma'],
      ['Email', 'riya@example.com'],
      ['Mobile', '9876543210'],
      ['Board', 'ICSE'],
      ['Grade', '3rd'],
      ['Gender', 'Daughter'],
      ['Date of Birth', '29/02/2016'],
      ['Enrollment ID', '12'],
    ];
    for (const [term, value] of rows) {
      const dt = screen.getByText(term, { selector: 'dt' });
      expect(dt.nextElementSibling).toHaveTextContent(value);
    }
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('shows "No user data available" and "Error loading data" when the profile cannot load', async () => {
    signIn();
    mockFetch({ 'GET /api/students/me': () => ({ status: 500, body: { error: 'boom' } }) });
    renderApp('/dashboard');
    expect(await screen.findByText('No user data available')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoadingData));
  });

  it('after a failed load, "Try again" asks again, says so where the failure was, and shows the profile', async () => {
    signIn();
    // Down until the student asks again; then the answer waits until the test gives it.
    let retried: ReturnType<typeof deferred<MockReply>> | null = null;
    const { calls } = mockFetch({
      'GET /api/students/me': () => retried?.promise ?? { status: 503, body: { error: 'unavailable' } },
    });
    const { user } = renderApp('/dashboard');
    const status = await screen.findByText('No user data available');
    expect(status).toHaveAttribute('role', 'status');
    const failedCalls = calls.length;
    retried = deferred<MockReply>();
    const profileSection = screen.getByRole('region', { name: 'Your Profile' });
    await user.click(within(profileSection).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.length).toBe(failedCalls + 1));
    // The same live region says the profile is loading again, and holds the focus.
    expect(status).toHaveTextContent('Loading...');
    expect(status).toHaveFocus();
    expect(within(profileSection).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    retried.resolve({ body: profile });
    expect(await screen.findByText('Welcome, Riya Sharma')).toBeInTheDocument();
    expect(screen.getByText('Riya Sharma', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.queryByText('No user data available')).not.toBeInTheDocument();
  });

  it('on a 401 says the session expired, forgets it and returns to the login', async () => {
    signIn();
    mockFetch({
      'GET /api/students/me': () => ({
        status: 401,
        body: { error: 'Session expired, please login again', code: 209 },
      }),
    });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.sessionExpired));
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeNull();
  });

  it('logs out', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'POST /api/student/logout': () => ({ body: { success: true } }),
    });
    const { user } = renderApp('/dashboard');
    await screen.findByText('Welcome, Riya Sharma');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.loggedOut));
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeNull();
    expect(calls.find((c) => c.path === '/api/student/logout')?.headers.Authorization).toBe('Bearer r:token');
  });

  it('says "Error logging out" when the logout fails, forgets the session all the same, and asks the server again', async () => {
    signIn();
    let logouts = 0;
    const { calls } = mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'POST /api/student/logout': () => (++logouts < 3 ? { status: 500 } : { body: { success: true } }),
    });
    const { user } = renderApp('/dashboard');
    await screen.findByText('Welcome, Riya Sharma');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoggingOut));
    // On a shared computer the next person finds no one signed in.
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' })).toBeInTheDocument();
    expect(currentPath()).toBe('/studentlogin');
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeNull();
    // Again after a pause, and once more when the browser says it is back online: then ended.
    const asked = () => calls.filter((c) => c.path === '/api/student/logout');
    await waitFor(() => expect(asked()).toHaveLength(2), { timeout: 5_000 });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(asked()).toHaveLength(3));
    expect(asked().every((c) => c.headers.Authorization === 'Bearer r:token')).toBe(true);
    // That it asks no more once ended, and when it gives up, is lib/log-out.test.ts's (a clock of its own).
  });

  it('stays signed in when "Log out of all devices" fails, to try again', async () => {
    signIn();
    const answer = deferred<MockReply>();
    mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'POST /api/student/logout-all': () => answer.promise,
    });
    const { user } = renderApp('/dashboard');
    await screen.findByText('Welcome, Riya Sharma');
    await user.click(screen.getByRole('button', { name: 'Log out of all devices' }));
    // The dialog stays, busy, until the answer: closed at once it would give the focus back to a
    // button disabled meanwhile (a browser then drops the focus to the page's start). A clock of
    // the test's own runs any closing transition to its end, however busy the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      await confirmLogOutEverywhere(user);
      act(() => {
        vi.advanceTimersByTime(5_000);
      });
    } finally {
      vi.useRealTimers();
    }
    const asked = screen.getByRole('dialog', { name: 'Log out of all devices?' });
    // Inert while busy (never disabled, which would drop the focus), and Cancel too.
    expect(within(asked).getByRole('button', { name: 'Log out everywhere' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(asked).getByRole('button', { name: 'Cancel' })).toHaveAttribute('aria-disabled', 'true');
    answer.resolve({ status: 500 });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.errorLoggingOut));
    expect(currentPath()).toBe('/dashboard');
    const again = screen.getByRole('button', { name: 'Log out of all devices' });
    expect(again).toBeEnabled();
    // The dialog gave the focus back to it, ready to try again.
    await waitFor(() => expect(again).toHaveFocus());
  });

  it('lets go of a session another tab (a duplicate of this one) logged out of', async () => {
    signIn();
    mockFetch({ 'GET /api/students/me': () => ({ body: profile }) });
    renderApp('/dashboard');
    await screen.findByText('Welcome, Riya Sharma');
    // What lib/session.ts of the other tab says as it lets the session go.
    const otherTab = new BroadcastChannel('tc-ended-student-sessions');
    otherTab.postMessage({ studentToken: 'r:another-session' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('Welcome, Riya Sharma')).toBeInTheDocument();
    otherTab.postMessage({ studentToken: 'r:token' });
    otherTab.close();
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeNull();
  });

  it('logs out of all devices', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'POST /api/student/logout-all': () => ({ body: { success: true } }),
    });
    const { user } = renderApp('/dashboard');
    await screen.findByText('Welcome, Riya Sharma');
    // Asked first, Cancel focused: a stray tap or Enter logs nobody out.
    await user.click(screen.getByRole('button', { name: 'Log out of all devices' }));
    const asked = screen.getByRole('dialog', { name: 'Log out of all devices?' });
    expect(within(asked).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.path === '/api/student/logout-all')).toBe(false);
    expect(screen.getByText('Welcome, Riya Sharma')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log out of all devices' }));
    await confirmLogOutEverywhere(user);
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.loggedOutEverywhere));
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeNull();
    expect(calls.find((c) => c.path === '/api/student/logout-all')?.headers.Authorization).toBe('Bearer r:token');
  });

  it('keeps the student signed in when a request made with a session replaced meanwhile answers 401', async () => {
    signIn();
    const firstSchedule = deferred<MockReply>();
    let scheduleCalls = 0;
    const { calls } = mockFetch({
      'GET /api/students/me': () => ({ body: profile }),
      'GET /api/students/me/schedule': () => (scheduleCalls++ === 0 ? firstSchedule.promise : { status: 500 }),
    });
    renderApp('/dashboard');
    await screen.findByText('Welcome, Riya Sharma');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/students/me/schedule')).toBe(true));
    // A change of password has replaced the session (its answer's token) while the
    // schedule was on its way with the old one, which the server has now ended.
    act(() => studentSession.save('r:new-token'));
    firstSchedule.resolve({ status: 401, body: { error: 'Invalid session token', code: 209 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(currentPath()).toBe('/dashboard');
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toContain('r:new-token');
    expect(screen.queryByText(UiMessage.sessionExpired)).not.toBeInTheDocument();
  });
});
