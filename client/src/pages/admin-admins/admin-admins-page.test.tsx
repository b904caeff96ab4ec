import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_SESSION_KEY } from '@tc/domain/constants';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage } from '@tc/domain/messages';
import { PasswordChangeMessage } from '@tc/domain/password-change-messages';
import { Route } from '@tc/domain/routes';
import { deferred, mockFetch, renderApp, type MockHandler, type MockReply } from '../../test/render-app.tsx';

// An administrator's change of their own password on the Admins page: the same form as
// the student's (the confirmation, the rules before sending, a proof of work when asked).

const INVITED_UNTIL = '2026-11-28T08:30:00.000Z';

function serve(handlers: Record<string, MockHandler> = {}) {
  return mockFetch({
    'GET /api/admin/me': () => ({ body: { name: 'Asha', email: 'asha@example.com' } }),
    'GET /api/admin/centre': () => ({ body: { timeZone: 'Asia/Kolkata' } }),
    'GET /api/admins': () => ({
      body: [
        { objectId: 'me', email: 'asha@example.com', name: 'Asha', self: true },
        { objectId: 'inv', email: 'ravi@example.com', name: 'Ravi', self: false, invitedUntil: INVITED_UNTIL },
      ],
    }),
    ...handlers,
  });
}

async function openAdmins() {
  window.localStorage.setItem(ADMIN_SESSION_KEY, 'r:admin');
  const view = renderApp(Route.adminAdmins);
  expect(await screen.findByRole('heading', { name: 'Change your password' }, { timeout: 15000 })).toBeInTheDocument();
  return view;
}

async function fill(user: ReturnType<typeof renderApp>['user'], confirm: string) {
  await user.type(screen.getByLabelText('Current Password'), 'Old-password1');
  await user.type(screen.getByLabelText('New Password'), 'New-password1');
  await user.type(screen.getByLabelText('Confirm New Password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

/** A call whose first answer is a failure (503, saying `error`), then `then`; and how often it was asked. */
function failsOnce(error: string, then: MockReply) {
  let answers = 0;
  return {
    answer: (): MockReply => (++answers === 1 ? { status: 503, body: { code: ErrorCode.Internal, error } } : then),
    answers: () => answers,
  };
}

const passwordCalls = (calls: { path: string }[]) => calls.filter((c) => c.path === '/api/admin/password');

afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe("the admin's change of password", () => {
  it('refuses a confirmation that does not match, under its field, without asking the server', async () => {
    const { calls } = serve();
    const { user } = await openAdmins();
    await fill(user, 'New-password2');
    const confirm = screen.getByLabelText('Confirm New Password');
    await waitFor(() => expect(confirm).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText(RegistrationMessage.passwordsDoNotMatch)).toBeInTheDocument();
    // The focus moves in the frame after the error shows (lib/focus-field.ts): a busy machine
    // may paint that frame after the check above.
    await waitFor(() => expect(confirm).toHaveFocus());
    expect(passwordCalls(calls)).toHaveLength(0);
  });

  it('sends the current and the new password, goes on with the new session and empties the form', async () => {
    const { calls } = serve({ 'PUT /api/admin/password': () => ({ body: { success: true, token: 'r:new' } }) });
    const { user } = await openAdmins();
    await fill(user, 'New-password1');
    await waitFor(() => expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBe('r:new'));
    expect(passwordCalls(calls).map((c) => (c as { body?: unknown }).body)).toEqual([
      { currentPassword: 'Old-password1', newPassword: 'New-password1' },
    ]);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(PasswordChangeMessage.changed));
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm New Password')).toHaveValue('');
  });

  it('shows the proof of work when the server asks for one (3052) and keeps the session', async () => {
    serve({
      'PUT /api/admin/password': () => ({
        status: 401,
        body: { code: ErrorCode.ChallengeRequired, error: 'Please confirm you are not a robot and try again.' },
      }),
      'GET /api/login-challenge': () => deferred<MockReply>().promise,
    });
    const { user } = await openAdmins();
    expect(screen.queryByTestId('login-challenge')).toBeNull();
    await fill(user, 'New-password1');
    expect(await screen.findByTestId('login-challenge')).toBeInTheDocument();
    expect(window.localStorage.getItem(ADMIN_SESSION_KEY)).toBe('r:admin');
  });
});

/** Withdraws Ravi's invitation through its dialog, which says `asks` with Cancel focused; checks the one call. */
async function withdrawRavi(
  user: ReturnType<typeof renderApp>['user'],
  calls: { method: string; path: string }[],
  asks: string,
) {
  await user.click(screen.getByRole('button', { name: 'Withdraw the invitation of ravi@example.com' }));
  const asked = await screen.findByRole('dialog', { name: 'Withdraw this invitation?' });
  expect(asked).toHaveTextContent(asks);
  expect(within(asked).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await user.click(within(asked).getByRole('button', { name: 'Withdraw' }));
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invitation withdrawn'));
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/admins/invitations/inv']);
}

describe('an invitation not yet accepted', () => {
  it('is listed as such, with when its code stops working, and can be withdrawn', async () => {
    const { calls } = serve({ 'DELETE /api/admins/invitations/inv': () => ({ body: { success: true } }) });
    const { user } = await openAdmins();
    const item = screen.getByText('Ravi').closest('li')!;
    // At the centre's clock, labelled, whatever zone this computer is in (08:30 UTC is 14:00 in India).
    await waitFor(() =>
      expect(item).toHaveTextContent(
        'ravi@example.com · invited, not yet accepted (the code works until 28/11/2026 14:00 IST)',
      ),
    );
    // Asked first, with Cancel focused; withdrawn with its own call, never removeAdmin's.
    await withdrawRavi(user, calls, 'Ravi (ravi@example.com) was invited; the code sent to them stops working.');
  });
});

describe('a withdrawal that fails', () => {
  it('keeps its question open, saying why, to be answered again', async () => {
    const withdrawal = failsOnce('The service is busy. Please try again.', { body: { success: true } });
    serve({ 'DELETE /api/admins/invitations/inv': withdrawal.answer });
    const { user } = await openAdmins();
    await user.click(await screen.findByRole('button', { name: 'Withdraw the invitation of ravi@example.com' }));
    const asked = await screen.findByRole('dialog', { name: 'Withdraw this invitation?' });
    await user.click(within(asked).getByRole('button', { name: 'Withdraw' }));
    // Said in the question (a toast behind it would be hidden from screen readers).
    expect(await within(asked).findByRole('alert')).toHaveTextContent('The service is busy. Please try again.');
    await user.click(within(asked).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Withdraw this invitation?' })).toBeNull());
    expect(withdrawal.answers()).toBe(2);
  });
});

describe('an invitation whose code was mistyped too often', () => {
  it('says it works no more and asks for a new invitation; it can still be withdrawn', async () => {
    const { calls } = serve({
      'GET /api/admins': () => ({
        body: [
          { objectId: 'me', email: 'asha@example.com', name: 'Asha', self: true },
          {
            objectId: 'inv',
            email: 'ravi@example.com',
            name: 'Ravi',
            self: false,
            invitedUntil: INVITED_UNTIL,
            blocked: true,
          },
        ],
      }),
      'DELETE /api/admins/invitations/inv': () => ({ body: { success: true } }),
    });
    const { user } = await openAdmins();
    const item = screen.getByText('Ravi').closest('li')!;
    expect(item).toHaveTextContent('ravi@example.com · invited; the code was mistyped too often and works no more');
    await withdrawRavi(
      user,
      calls,
      'Ravi (ravi@example.com) was invited; their code works no more, and the invitation leaves this list.',
    );
  });
});

describe('a blocked invitation sent again', () => {
  it('sends the same name and address from its row, says so, and lists the new invitation', async () => {
    let sent = false;
    const row = { objectId: 'inv', email: 'ravi@example.com', name: 'Ravi', self: false, invitedUntil: INVITED_UNTIL };
    const { calls } = serve({
      'GET /api/admins': () => ({
        body: [
          { objectId: 'me', email: 'asha@example.com', name: 'Asha', self: true },
          sent ? { ...row, objectId: 'inv2' } : { ...row, blocked: true },
        ],
      }),
      'POST /api/admins': () => {
        sent = true;
        return { body: { success: true } };
      },
    });
    const { user } = await openAdmins();
    await user.click(await screen.findByRole('button', { name: 'Invite ravi@example.com again' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invitation sent to ravi@example.com'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { email: 'ravi@example.com', name: 'Ravi' },
    ]);
    const item = (await screen.findByText(/invited, not yet accepted/)).closest('li')!;
    expect(within(item).queryByRole('button', { name: /again/ })).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Administrators and invitations' })).toHaveFocus());
  });
});

describe('the invitation form', () => {
  it("keeps its message apart from the password form's: each form's failure takes the focus to its own", async () => {
    serve({
      'POST /api/admins': () => ({ status: 503, body: { code: ErrorCode.Internal, error: 'Invitations are resting' } }),
      'PUT /api/admin/password': () => ({
        status: 503,
        body: { code: ErrorCode.Internal, error: 'Passwords are resting' },
      }),
    });
    const { user } = await openAdmins();
    await user.type(screen.getByLabelText(/^Name/), 'Meera');
    await user.type(screen.getByLabelText(/^Email/), 'meera@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    const invitation = await screen.findByText('Invitations are resting', { selector: 'form *' });
    await waitFor(() => expect(invitation).toHaveFocus());
    // Still shown (nothing typed there since) when the other form fails.
    await fill(user, 'New-password1');
    const password = await screen.findByText('Passwords are resting', { selector: 'form *' });
    await waitFor(() => expect(password).toHaveFocus());
    expect(invitation).toBeInTheDocument();
    expect(invitation.id).not.toBe(password.id);
  });

  it("says what is missing under its field, in the site's words, before asking the server", async () => {
    const { calls } = serve({ 'POST /api/admins': () => ({ body: { success: true } }) });
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    const name = screen.getByLabelText(/^Name/);
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(AdminToolsMessage.nameRequired);
    await user.type(name, 'Meera');
    await user.type(screen.getByLabelText(/^Email/), 'meera@');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription(RegistrationMessage.emailInvalid),
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(screen.getByLabelText(/^Email/), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
        { name: 'Meera', email: 'meera@example.com' },
      ]),
    );
  });
});

describe('the list of administrators', () => {
  it('says when it does not come, and loads it again on "Try again"', async () => {
    const admins = failsOnce('Try again', {
      body: [{ objectId: 'me', email: 'asha@example.com', name: 'Asha', self: true }],
    });
    serve({ 'GET /api/admins': admins.answer });
    const { user } = await openAdmins();
    expect(await screen.findByText(AdminToolsMessage.adminsNotLoaded)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const list = screen.getByRole('list', { name: 'Administrators' });
    expect(await within(list).findByText(/asha@example.com/)).toBeInTheDocument();
    expect(screen.queryByText(AdminToolsMessage.adminsNotLoaded)).not.toBeInTheDocument();
    expect(admins.answers()).toBe(2);
    // The focus, on the status while it loaded, goes on to the list's heading (not the page's start).
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Administrators and invitations' })).toHaveFocus());
  });
});
