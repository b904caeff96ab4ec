import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@testing-library/user-event';
import { RegistrationMessage, UiMessage } from '@tc/domain/messages';
import { currentPath, mockFetch, renderApp, type MockHandler } from '../../test/render-app.tsx';

const stepOne = (exists: boolean, otpStatus = 200): Record<string, MockHandler> => ({
  'POST /api/check-email': () => ({ body: { exists } }),
  'POST /api/send-email-otp': () => ({
    status: otpStatus,
    body: otpStatus === 200 ? { success: true } : { error: 'Too many requests. Please try again later.' },
  }),
});

/** Types the new password and its confirmation (replacing what was there), and submits step two. */
async function submitPasswords(user: UserEvent, newPassword: string, confirmation: string) {
  await user.clear(screen.getByLabelText('New Password'));
  await user.clear(screen.getByLabelText('Confirm New Password'));
  await user.type(screen.getByLabelText('New Password'), newPassword);
  await user.type(screen.getByLabelText('Confirm New Password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Verify & Reset Password' }));
}

async function open() {
  const view = renderApp('/forgotpassword');
  await screen.findByLabelText('Email Address');
  return view;
}

describe('forgot password', () => {
  it('asks for the e-mail address first', async () => {
    const { calls } = mockFetch({});
    const { user } = await open();
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.enterEmailAddress)).toHaveLength(2));
    expect(calls).toHaveLength(0);
  });

  it('says "Email does not exist" for an unknown address', async () => {
    mockFetch(stepOne(false));
    const { user } = await open();
    await user.type(screen.getByLabelText('Email Address'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.emailDoesNotExist)).toHaveLength(2));
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument();
  });

  it('puts the server\'s "valid email address" under the field, as registration does', async () => {
    mockFetch({
      'POST /api/check-email': () => ({
        status: 400,
        body: { error: RegistrationMessage.emailInvalid, code: 142, field: 'email' },
      }),
    });
    const { user } = await open();
    const email = screen.getByLabelText('Email Address');
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription(RegistrationMessage.emailInvalid));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(email).toHaveFocus());
  });

  it('says "Failed to send OTP", or the server text on 429', async () => {
    mockFetch(stepOne(true, 500));
    const { user } = await open();
    await user.type(screen.getByLabelText('Email Address'), 'riya@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.failedToSendOtp));
    mockFetch(stepOne(true, 429));
    // The message can show a moment before the button is enabled again: a click then would do nothing.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send OTP' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Too many requests. Please try again later.'),
    );
  });

  it('moves to step two, checks the new password, resets it and goes to the login', async () => {
    const { calls } = mockFetch({
      ...stepOne(true),
      'PUT /api/users/update-password': (body) =>
        (body as { otp: string }).otp === '123456'
          ? { body: { success: true } }
          : { status: 400, body: { success: false, error: 'Invalid OTP. Please try again.', code: 3040 } },
    });
    const { user } = await open();
    await user.type(screen.getByLabelText('Email Address'), 'riya@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));

    const otp = await screen.findByLabelText('OTP');
    await waitFor(() => expect(otp).toHaveFocus());
    expect(screen.getByLabelText('Email Address')).toBeDisabled();
    expect(screen.getByLabelText('New Password')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm New Password')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(2);
    expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.otpSent));

    await user.type(otp, '654321');
    // The new password's rules come before the confirmation, as at registration.
    await submitPasswords(user, 'short', 'shorter');
    await waitFor(() => expect(screen.getAllByText(RegistrationMessage.passwordTooShort)).toHaveLength(2));
    await submitPasswords(user, 'New-pass-1', 'New-pass-2');
    await waitFor(() => expect(screen.getAllByText(UiMessage.passwordsDoNotMatch)).toHaveLength(2));

    // A space at an end is trimmed from the stored password, so it does not make them differ (as at registration).
    await submitPasswords(user, 'New-pass-1', 'New-pass-1 ');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invalid OTP. Please try again.'));
    // Under the code field, which takes focus (the server's code says which field).
    await waitFor(() => expect(otp).toHaveFocus());
    expect(otp).toHaveAccessibleDescription('Invalid OTP. Please try again.');

    await user.clear(otp);
    await user.type(otp, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Reset Password' }));
    expect(await screen.findByRole('heading', { name: 'NICE TO SEE YOU' }, { timeout: 15000 })).toBeInTheDocument();
    expect(currentPath()).toBe('/studentlogin');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.passwordResetSuccessful));
    expect(calls.filter((c) => c.path === '/api/users/update-password').at(-1)?.body).toEqual({
      email: 'riya@example.com',
      otp: '123456',
      newPassword: 'New-pass-1',
    });
  });

  it('goes back to step one with "Use a different e-mail"', async () => {
    mockFetch(stepOne(true));
    const { user } = await open();
    await user.type(screen.getByLabelText('Email Address'), 'riya@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await screen.findByLabelText('OTP');
    await user.click(screen.getByRole('button', { name: 'Use a different e-mail' }));
    const email = screen.getByLabelText('Email Address');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toBeEnabled();
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeInTheDocument();
  });

  it('says "Password reset failed" when the server gives no reason', async () => {
    mockFetch({ ...stepOne(true), 'PUT /api/users/update-password': () => ({ status: 500 }) });
    const { user } = await open();
    await user.type(screen.getByLabelText('Email Address'), 'riya@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await user.type(await screen.findByLabelText('OTP'), '123456');
    await submitPasswords(user, 'New-pass-1', 'New-pass-1');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.passwordResetFailed));
  });
});
