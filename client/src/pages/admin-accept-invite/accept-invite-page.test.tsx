import { screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { mockFetch, renderApp } from '../../test/render-app.tsx';

// Accepting an admin invitation: the address comes from the mail's link; the server's refusal
// names the field it is about.

afterEach(() => {
  vi.restoreAllMocks();
});

it("shows under the e-mail that the address has become a student's while the invitation waited", async () => {
  const { calls } = mockFetch({
    'POST /api/admins/accept': () => ({
      status: 409,
      body: { success: false, error: AdminToolsMessage.studentEmail, code: ErrorCode.EmailTaken, field: 'email' },
    }),
  });
  const { user } = renderApp(`${Route.adminAcceptInvite}?email=ravi%40example.com`);
  const email = await screen.findByLabelText(/^Email/, undefined, { timeout: 15000 });
  expect(email).toHaveValue('ravi@example.com');
  // Pasted from the mail with a space before it: every digit is kept.
  await user.click(screen.getByLabelText(/^Code/));
  await user.paste(' 123456');
  expect(screen.getByLabelText(/^Code/)).toHaveValue('123456');
  await user.type(screen.getByLabelText(/^Password/), 'Invited-pass-1');
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
  expect(email).toHaveAccessibleDescription(AdminToolsMessage.studentEmail);
  expect(calls.filter((c) => c.path === '/api/admins/accept').map((c) => c.body)).toEqual([
    { email: 'ravi@example.com', otp: '123456', password: 'Invited-pass-1' },
  ]);
});

it('says the password rules before sending, and refuses a short password under its field without asking the server', async () => {
  const { calls } = mockFetch({ 'POST /api/admins/accept': () => ({ body: { success: true } }) });
  const { user } = renderApp(`${Route.adminAcceptInvite}?email=ravi%40example.com`);
  const password = await screen.findByLabelText(/^Password/, undefined, { timeout: 15000 });
  expect(password).toHaveAccessibleDescription(/^At least 8 characters/);
  await user.type(screen.getByLabelText(/^Code/), '123456');
  await user.type(password, 'short');
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await waitFor(() => expect(password).toHaveFocus());
  expect(password).toHaveAttribute('aria-invalid', 'true');
  expect(password).toHaveAccessibleDescription(RegistrationMessage.passwordTooShort);
  expect(calls.filter((c) => c.path === '/api/admins/accept')).toHaveLength(0);
});

it('says a refusal no field is to blame for on the form, with the focus there, each time it comes, until something changes', async () => {
  mockFetch({
    'POST /api/admins/accept': () => ({ status: 503, body: { code: ErrorCode.Internal, error: 'Please try again.' } }),
  });
  const { user } = renderApp(`${Route.adminAcceptInvite}?email=ravi%40example.com`);
  await user.type(await screen.findByLabelText(/^Code/, undefined, { timeout: 15000 }), '123456');
  await user.type(screen.getByLabelText(/^Password/), 'Invited-pass-1');
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  const said = () => screen.getByText('Please try again.', { selector: 'form *' });
  await waitFor(() => expect(said()).toHaveFocus());
  // Changed: it goes; asked again and refused again: it is said again, and read (focused) again.
  await user.type(screen.getByLabelText(/^Password/), '2');
  expect(screen.queryByText('Please try again.', { selector: 'form *' })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await waitFor(() => expect(said()).toHaveFocus());
});
