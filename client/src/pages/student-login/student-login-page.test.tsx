import { act, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { STUDENT_SESSION_KEY } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { currentPath, deferred, mockFetch, renderApp, type MockReply } from '../../test/render-app.tsx';
import { signIn } from '../../test/student.ts';

async function openLogin() {
  const view = renderApp('/studentlogin');
  await screen.findByRole('heading', { name: 'NICE TO SEE YOU' });
  return view;
}

describe('student login', () => {
  it('shows the fields and the links to reset a password or register', async () => {
    await openLogin();
    // An e-mail or a mobile: a phone's keyboard neither capitalises nor "corrects" it.
    const identifier = screen.getByLabelText('Email ID or Mobile Number');
    expect(identifier).toHaveAttribute('autocapitalize', 'none');
    expect(identifier).toHaveAttribute('autocorrect', 'off');
    expect(identifier).toHaveAttribute('spellcheck', 'false');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute('href', '/forgotpassword');
    expect(screen.getByRole('link', { name: 'Register now' })).toHaveAttribute('href', '/Registeruser');
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it('asks for the identifier, then the password, before calling the server', async () => {
    const { calls } = mockFetch({});
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.enterIdentifier)).toHaveLength(2));
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), '   ');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.enterIdentifier));
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), 'riya@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.enterPassword)).toHaveLength(2));
    expect(calls).toHaveLength(0);
  });

  it('reads "Logging in..." while busy, then stores the session and opens the dashboard', async () => {
    const reply = deferred<MockReply>();
    const { calls } = mockFetch({
      'POST /api/student/login': () => reply.promise,
      'GET /api/students/me': () => ({
        body: {
          fullname: 'Riya Sharma',
          email: 'riya@example.com',
          mobile: '9876543210',
          board: 'CBSE',
          grade: 4,
          gender: 'Son',
          dob: '2015-06-15',
          id: 7,
        },
      }),
    });
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), '  riya@example.com ');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    const busy = await screen.findByRole('button', { name: 'Logging in...' });
    // Inert, not disabled: it keeps the focus, and a second press sends nothing.
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveFocus();
    // The request goes once the contract table has loaded (lib/api.ts).
    await waitFor(() => expect(calls).toHaveLength(1));
    await user.click(busy);
    await user.keyboard('{Enter}');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ identifier: 'riya@example.com', password: 'Secret-pass1' });
    reply.resolve({ body: { tokenStudent: 'r:token' } });
    expect(await screen.findByRole('heading', { name: 'Student Dashboard' }, { timeout: 15000 })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
    expect(JSON.parse(window.sessionStorage.getItem(STUDENT_SESSION_KEY) ?? '')).toEqual({ tokenStudent: 'r:token' });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.loginSuccessful));
  });

  it.each([
    [
      { status: 401, body: { error: 'Invalid Email ID/Mobile Number or Password', code: 3050 } },
      'Invalid Email ID/Mobile Number or Password',
    ],
    [{ status: 502 }, UiMessage.loginFailed],
  ])('shows the server error, else "Login failed" (%j)', async (reply, message) => {
    mockFetch({ 'POST /api/student/login': () => reply });
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), '9876543210');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeNull();
  });

  it('redirects to the dashboard when a student session exists', async () => {
    window.sessionStorage.setItem(STUDENT_SESSION_KEY, JSON.stringify({ tokenStudent: 'r:token' }));
    mockFetch({ 'GET /api/students/me': () => deferred<MockReply>().promise });
    renderApp('/studentlogin');
    expect(await screen.findByRole('heading', { name: 'Student Dashboard' })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });

  it('shows the proof-of-work challenge when the server asks for one (3052)', async () => {
    const { calls } = mockFetch({
      'POST /api/student/login': () => ({
        status: 401,
        body: { error: 'Please confirm you are not a robot and try again.', code: 3052 },
      }),
      'GET /api/login-challenge': () => deferred<MockReply>().promise,
    });
    const { user } = await openLogin();
    expect(screen.queryByTestId('login-challenge')).toBeNull();
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), 'riya@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('not a robot'));
    expect(await screen.findByTestId('login-challenge')).toBeInTheDocument();
    // The request goes once the contract table has loaded (lib/api.ts).
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toEqual({ identifier: 'riya@example.com', password: 'Secret-pass1' });
  });

  it('logs in once the challenge is solved, with the fields it was asked with; with fields changed, at the next press', async () => {
    let answers = 0;
    const { calls } = mockFetch({
      'POST /api/student/login': () =>
        answers++ === 0
          ? { status: 401, body: { error: 'Please confirm you are not a robot and try again.', code: 3052 } }
          : { status: 401, body: { error: 'Invalid email or password', code: 101 } },
      'GET /api/login-challenge': () => deferred<MockReply>().promise,
    });
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), 'riya@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('not a robot'));
    const widget = await waitFor(() => {
      const found = document.querySelector('altcha-widget');
      if (!found) throw new Error('no widget yet');
      return found;
    });
    const logins = () => calls.filter((c) => c.path === '/api/student/login').map((c) => c.body);
    // The parent types the password again while the widget works: its solution waits for Login.
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Secret-pa');
    act(() => {
      widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'solution-1' } }));
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(logins()).toHaveLength(1);
    await user.type(screen.getByLabelText('Password'), 'ss2');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(logins()).toHaveLength(2));
    expect(logins()[1]).toEqual({ identifier: 'riya@example.com', password: 'Secret-pass2', altcha: 'solution-1' });
  });

  /** Logs in on the login page the app was sent to. */
  async function logInOnTheLoginPage(user: UserEvent) {
    await screen.findByRole('heading', { name: 'NICE TO SEE YOU' });
    expect(currentPath()).toBe('/studentlogin');
    await user.type(screen.getByLabelText('Email ID or Mobile Number'), 'riya@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
  }

  it('brings a student whose session ended on the progress page back there after logging in again', async () => {
    signIn();
    let logins = 0;
    mockFetch({
      'POST /api/student/login': () => ((logins += 1), { body: { tokenStudent: 'r:student-again' } }),
      'GET /api/students/me/progress': () =>
        logins === 0
          ? { status: 401, body: { code: 209, error: 'Invalid session token' } }
          : { body: { assessments: [], subjects: [] } },
    });
    const { user } = renderApp('/dashboard/progress');
    await logInOnTheLoginPage(user);
    await waitFor(() => expect(currentPath()).toBe('/dashboard/progress'));
    expect(await screen.findByText(/No marks yet/)).toBeInTheDocument();
  });

  it('sends a visitor of the progress page (the marks mail links there) to log in, and back there after', async () => {
    mockFetch({
      'POST /api/student/login': () => ({ body: { tokenStudent: 'r:student' } }),
      'GET /api/students/me/progress': () => ({ body: { assessments: [], subjects: [] } }),
    });
    const { user } = renderApp('/dashboard/progress');
    await logInOnTheLoginPage(user);
    await waitFor(() => expect(currentPath()).toBe('/dashboard/progress'));
    expect(window.sessionStorage.getItem(STUDENT_SESSION_KEY)).toBeTruthy();
  });
});
