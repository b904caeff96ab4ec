import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage as M, UiMessage } from '@tc/domain/messages';
import { ServerMessage } from '@tc/domain/server-messages';
import { currentPath, mockFetch, renderApp, type MockHandler } from '../../test/render-app.tsx';

interface Fill {
  fullname?: string;
  email?: string;
  mobile?: string;
  password?: string;
  cnfpassword?: string;
  dob?: string | null;
  grade?: string;
  board?: string;
  tmc?: boolean;
}

const valid: Required<Fill> = {
  fullname: 'Riya Sharma',
  email: 'riya@example.com',
  mobile: '9876543210',
  password: 'Secret-pass1',
  cnfpassword: 'Secret-pass1',
  dob: '15062015',
  grade: '4',
  board: 'CBSE',
  tmc: true,
};

async function setDob(user: UserEvent, digits: string) {
  const group = screen.getByRole('group', { name: 'Date of Birth' });
  await user.click(within(group).getByRole('spinbutton', { name: 'Day' }));
  await user.keyboard(digits);
}

/** Types a whole value at once (a paste), which keeps these many-field tests quick. */
async function enter(user: UserEvent, label: string, value: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(value);
}

async function fill(user: UserEvent, values: Fill) {
  if (values.fullname) await enter(user, 'Student Full Name', values.fullname);
  if (values.email) await enter(user, 'Email', values.email);
  if (values.mobile) await enter(user, 'Mobile', values.mobile);
  if (values.password) await enter(user, 'Password', values.password);
  if (values.cnfpassword) await enter(user, 'Confirm Password', values.cnfpassword);
  if (values.dob) await setDob(user, values.dob);
  if (values.grade) await user.selectOptions(screen.getByLabelText('Grade'), values.grade);
  if (values.board) await user.selectOptions(screen.getByLabelText('Board'), values.board);
  if (values.tmc) await user.click(screen.getByLabelText('I agree with terms and conditions'));
}

async function openForm() {
  const view = renderApp('/registeruser');
  await screen.findByRole('button', { name: 'Send OTP' }, { timeout: 15000 });
  // The date picker's code is fetched on the parent's first tap or key on the page.
  await view.user.click(screen.getByLabelText('Student Full Name'));
  await screen.findByRole('group', { name: 'Date of Birth' }, { timeout: 15000 });
  return view;
}

/** Opens the form, fills it in with `valid` and sends the code: the OTP field that appears. */
async function sendCode() {
  const view = await openForm();
  await fill(view.user, valid);
  await view.user.click(screen.getByRole('button', { name: 'Send OTP' }));
  const otp = await screen.findByLabelText('OTP');
  // The code step focuses its field once mounted (an effect): until then, focusing another
  // field can run that effect first (React flushes it before the next update), and it
  // takes the focus back. Seen once in CI: "The element to be cleared could not be focused".
  await waitFor(() => expect(otp).toHaveFocus());
  return { ...view, otp };
}

describe('registration form', () => {
  it('has every field with its visible label and the defaults of the seed spec', async () => {
    await openForm();
    for (const label of ['Student Full Name', 'Email', 'Mobile', 'Password', 'Confirm Password', 'Grade', 'Board']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByRole('group', { name: 'Date of Birth' })).toBeInTheDocument();
    const gender = screen.getByRole('radiogroup', { name: 'Gender' });
    expect(within(gender).getByRole('radio', { name: 'Son' })).toBeChecked();
    expect(within(gender).getByRole('radio', { name: 'Daughter' })).not.toBeChecked();
    expect(screen.getByLabelText('Grade')).toHaveDisplayValue('Select Grade');
    expect(screen.getByLabelText('Board')).toHaveDisplayValue('Select a Board');
    expect(
      within(screen.getByLabelText('Grade'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select Grade', '1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th']);
    expect(
      within(screen.getByLabelText('Board'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select a Board', 'CBSE', 'ICSE', 'State']);
    expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(2);
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument();
    expect(screen.getByLabelText('I agree with terms and conditions')).not.toBeChecked();
    // Its links open beside the half-filled form, and say so to a screen reader.
    for (const name of ['terms and conditions', 'privacy notice']) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('aria-description', 'Opens in a new tab');
    }
  });

  it('loads the date picker on demand: until then a stand-in field whose calendar button opens the calendar', async () => {
    const { user } = renderApp('/registeruser');
    await screen.findByRole('button', { name: 'Send OTP' }, { timeout: 15000 });
    // Nobody has touched the page: the stand-in, a plain field with the same label.
    const standIn = screen.getByLabelText('Date of Birth');
    expect(standIn).toHaveAttribute('name', 'dob');
    expect(screen.queryByRole('group', { name: 'Date of Birth' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    const calendar = await screen.findByRole('dialog', {}, { timeout: 15000 });
    expect(within(calendar).getByRole('radio', { name: String(new Date().getFullYear() - 10) })).toBeInTheDocument();
  });

  it('toggles password visibility', async () => {
    const { user } = await openForm();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getAllByRole('button', { name: 'Show password' })[0]!);
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toBeInTheDocument();
  });

  // Each case fills everything before the rule, then breaks the rule (the rules' order).
  const cases: Array<[string, Fill]> = [
    [M.fullnameRequired, {}],
    [M.emailRequired, { fullname: valid.fullname }],
    [M.emailInvalid, { fullname: valid.fullname, email: 'not-an-email' }],
    [M.mobileRequired, { fullname: valid.fullname, email: valid.email }],
    [M.mobileInvalid, { fullname: valid.fullname, email: valid.email, mobile: '12345' }],
    [M.passwordRequired, { fullname: valid.fullname, email: valid.email, mobile: valid.mobile }],
    [M.passwordTooShort, { fullname: valid.fullname, email: valid.email, mobile: valid.mobile, password: 'short' }],
    [M.passwordsDoNotMatch, { ...valid, cnfpassword: 'Other-pass1', dob: null, grade: '', board: '', tmc: false }],
    [M.tooYoung, { ...valid, dob: null, grade: '', board: '', tmc: false }],
    [M.dobInvalid, { ...valid, dob: '01011990', grade: '', board: '', tmc: false }],
    [M.gradeRequired, { ...valid, grade: '', board: '', tmc: false }],
    [M.boardRequired, { ...valid, board: '', tmc: false }],
    [M.termsRequired, { ...valid, tmc: false }],
  ];

  it.each(cases)('stops at "%s" with a toast and a message under the field', async (message, values) => {
    const { calls } = mockFetch({});
    const { user } = await openForm();
    await fill(user, values);
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    // Once in the toast, once under the field.
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(calls).toHaveLength(0);
  });

  it('ties the terms message to the box itself, for a screen reader at the box', async () => {
    mockFetch({});
    const { user } = await openForm();
    await fill(user, { ...valid, tmc: false });
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    const box = screen.getByRole('checkbox', { name: 'I agree with terms and conditions' });
    await waitFor(() => expect(box).toHaveAttribute('aria-invalid', 'true'));
    expect(box).toHaveAccessibleDescription(M.termsRequired);
  });

  it('moves focus to the field in error', async () => {
    mockFetch({});
    const { user } = await openForm();
    await fill(user, { fullname: valid.fullname, email: valid.email });
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getByLabelText('Mobile')).toHaveFocus());
  });

  it('shows "Date of Birth cannot be in the future"', async () => {
    mockFetch({});
    const { user } = await openForm();
    await fill(user, { ...valid, dob: `0101${new Date().getFullYear() + 1}` });
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getAllByText(M.dobInFuture)).toHaveLength(2));
  });

  /** What the Parse SDK asks first: the app id and where Parse is. */
  const parseRest: Record<string, MockHandler> = {
    'GET /api/parse-config': () => ({ body: { appId: 'test-app', serverPath: '/parse' } }),
  };

  const checks = (email: boolean, mobile: boolean): Record<string, MockHandler> => ({
    'POST /api/check-email': () => ({ body: { exists: email } }),
    'POST /api/check-mobile': () => ({ body: { exists: mobile } }),
  });

  it('refuses an e-mail or mobile that is already registered', async () => {
    mockFetch(checks(true, false));
    const { user } = await openForm();
    await fill(user, valid);
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.emailAlreadyRegistered)).toHaveLength(2));
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument();
  });

  it('refuses a registered mobile', async () => {
    mockFetch(checks(false, true));
    const { user } = await openForm();
    await fill(user, valid);
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.mobileAlreadyRegistered)).toHaveLength(2));
  });

  it('shows the server error of a failed check, else "An error occurred"', async () => {
    mockFetch({
      'POST /api/check-email': () => ({ status: 500 }),
      'POST /api/check-mobile': () => ({ body: { exists: false } }),
    });
    const { user } = await openForm();
    await fill(user, valid);
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    // A toast, and on the form above the button until something changes.
    await waitFor(() => expect(screen.getAllByText(UiMessage.anErrorOccurred)).toHaveLength(2));
    await waitFor(() => expect(screen.getByText(UiMessage.anErrorOccurred, { selector: 'form *' })).toHaveFocus());
  });

  it('says "Failed to send OTP" when the SMS is not sent, and the server text on 429', async () => {
    let status = 500;
    mockFetch({
      ...checks(false, false),
      'POST /api/send-sms': () => ({
        status,
        body: { error: 'Please wait 30 seconds before requesting another code', code: 3043 },
      }),
    });
    const { user } = await openForm();
    await fill(user, valid);
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.failedToSendOtp)).toHaveLength(2));
    status = 429;
    // The message can show a moment before the button is enabled again: a click then would do nothing.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send OTP' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() =>
      expect(screen.getAllByText('Please wait 30 seconds before requesting another code')).toHaveLength(2),
    );
  });

  it('sends the code, reveals and focuses the OTP field, then registers and goes to /thank-you', async () => {
    const { calls } = mockFetch({
      ...checks(false, false),
      'POST /api/send-sms': () => ({ body: { success: true } }),
      ...parseRest,
      // The final save goes through the Parse SDK: Parse's answers, `{result}` or `{code, error}`.
      'POST /parse/functions/registerStudent': (body) =>
        (body as { otp: string }).otp === '123456'
          ? { body: { result: { objectId: 'abc123', id: 7 } } }
          : { status: 400, body: { error: ServerMessage.wrongCode, code: ErrorCode.WrongCode } },
      'POST /api/send-email': () => ({ body: { messageId: '<m1@example>' } }),
    });
    const { user, otp } = await sendCode();
    // Focus moves to the field once it has appeared, a moment after.
    await waitFor(() => expect(otp).toHaveFocus());
    expect(await screen.findByText(UiMessage.otpSent)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify & Register' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
    expect(calls.find((c) => c.path === '/api/send-sms')?.body).toEqual({ mobile: valid.mobile });

    await user.type(otp, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify & Register' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.invalidOtp)).toHaveLength(2));

    // Pasted from the message with a space before it: every digit is kept.
    await user.clear(otp);
    await user.click(otp);
    await user.paste(' 123456');
    expect(otp).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Register' }));
    expect(await screen.findByRole('heading', { name: 'Thank You!!' }, { timeout: 15000 })).toBeInTheDocument();
    expect(currentPath()).toBe('/thank-you');
    // The enrollment number of the answer, with what to do next.
    expect(screen.getByText('Your enrollment number is 7')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UiMessage.registrationSuccessful));

    const register = calls.filter((c) => c.path === '/parse/functions/registerStudent').at(-1);
    // The SDK adds its own keys (application id, installation, version) beside the parameters.
    const params = Object.fromEntries(Object.entries(register?.body ?? {}).filter(([key]) => !key.startsWith('_')));
    expect((register?.body as Record<string, unknown>)._ApplicationId).toBe('test-app');
    expect(params).toEqual({
      fullname: valid.fullname,
      email: valid.email,
      mobile: valid.mobile,
      password: valid.password,
      cnfpassword: valid.cnfpassword,
      dob: '2015-06-15',
      gender: 'Son',
      grade: 4,
      board: 'CBSE',
      tmc: true,
      otp: '123456',
    });
    expect(calls.find((c) => c.path === '/api/send-email')?.body).toEqual({
      email: valid.email,
      fullname: valid.fullname,
    });
  });

  it('keeps the code for the number it went to; another number gets a new code, and the old message goes', async () => {
    const { calls } = mockFetch({
      ...checks(false, false),
      'POST /api/send-sms': () => ({ body: { success: true } }),
    });
    const { user, otp } = await sendCode();
    await user.type(otp, '12');
    await user.click(screen.getByRole('button', { name: 'Verify & Register' }));
    await waitFor(() => expect(screen.getAllByText(UiMessage.invalidOtp)).toHaveLength(2));

    // A slip in the number and back: the code on the phone still counts, nothing is sent.
    const mobile = screen.getByLabelText('Mobile');
    await user.type(mobile, '7');
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeInTheDocument();
    expect(screen.getByLabelText('OTP')).toHaveValue('12');
    await user.type(mobile, '{Backspace}');
    expect(screen.getByRole('button', { name: 'Verify & Register' })).toBeInTheDocument();

    // Another number: told so under the code, and the button sends it a new code.
    await user.clear(mobile);
    await user.paste('9876500000');
    expect(screen.getByLabelText('OTP')).toHaveAccessibleDescription(
      `We sent the code to ${valid.mobile}. For the new number, press Send OTP.`,
    );
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Verify & Register' })).toBeInTheDocument());
    expect(calls.filter((c) => c.path === '/api/send-sms').map((c) => c.body)).toEqual([
      { mobile: valid.mobile },
      { mobile: '9876500000' },
    ]);
    const fresh = screen.getByLabelText('OTP');
    expect(fresh).toHaveValue('');
    await waitFor(() => expect(fresh).toHaveFocus());
    expect(fresh).toHaveAccessibleDescription('Enter the 6-digit code we sent to 9876500000');
    expect(screen.queryAllByText(UiMessage.invalidOtp)).toEqual([]);
  });

  it('checks a number typed after the code was sent before "Resend code" sends it one', async () => {
    const { calls } = mockFetch({
      'POST /api/check-email': () => ({ body: { exists: false } }),
      'POST /api/check-mobile': (body) => ({ body: { exists: (body as { mobile: string }).mobile === '9876500000' } }),
      'POST /api/send-sms': () => ({ body: { success: true } }),
    });
    const { user } = await sendCode();
    await user.clear(screen.getByLabelText('Mobile'));
    await user.paste('9876500000');
    // Past the 30 s wait.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now + 31_000);
    try {
      await user.click(await screen.findByRole('button', { name: 'Resend code' }, { timeout: 5_000 }));
      await waitFor(() => expect(screen.getAllByText(UiMessage.mobileAlreadyRegistered)).toHaveLength(2));
    } finally {
      clock.mockRestore();
    }
    expect(calls.filter((c) => c.path === '/api/check-mobile').map((c) => c.body)).toEqual([
      { mobile: valid.mobile },
      { mobile: '9876500000' },
    ]);
    expect(calls.filter((c) => c.path === '/api/send-sms')).toHaveLength(1);
  });

  const registerFailure = async (reply: { status: number; body?: unknown }) => {
    mockFetch({
      ...checks(false, false),
      'POST /api/send-sms': () => ({ body: { success: true } }),
      ...parseRest,
      'POST /parse/functions/registerStudent': () => reply,
    });
    const { user } = await openForm();
    await fill(user, valid);
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await user.type(await screen.findByLabelText('OTP'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Register' }));
  };

  it.each([
    [
      { status: 400, body: { error: ServerMessage.emailTaken, code: ErrorCode.EmailTaken } },
      UiMessage.thisEmailRegistered,
    ],
    [
      { status: 400, body: { error: ServerMessage.mobileTaken, code: ErrorCode.MobileTaken } },
      UiMessage.thisMobileRegistered,
    ],
    // The code decides, whatever the text says.
    [{ status: 400, body: { error: 'Taken', code: ErrorCode.EmailTaken } }, UiMessage.thisEmailRegistered],
    // A field the server named (server/src/parse-internals adds it to Parse's answer).
    [
      { status: 400, body: { error: 'Please enter a valid name', code: ErrorCode.Validation, field: 'fullname' } },
      'Please enter a valid name',
    ],
    [
      { status: 400, body: { error: 'OTP has expired. Please request a new one.', code: ErrorCode.ExpiredCode } },
      'OTP has expired. Please request a new one.',
    ],
    [{ status: 500 }, UiMessage.registrationFailed],
  ])('maps a failed registration %j to "%s"', async (reply, message) => {
    await registerFailure(reply);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(currentPath()).toBe('/registeruser');
  });

  it('puts the message of a field the server named under that field, as through /api', async () => {
    await registerFailure({
      status: 400,
      body: { error: 'Please enter a valid name', code: ErrorCode.Validation, field: 'fullname' },
    });
    // A toast, and the message under the field.
    await waitFor(() => expect(screen.getAllByText('Please enter a valid name')).toHaveLength(2));
    await waitFor(() => expect(screen.getByLabelText('Student Full Name')).toHaveAttribute('aria-invalid', 'true'));
  });
});
