import { screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ErrorCode } from '@tc/domain/errors';
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
