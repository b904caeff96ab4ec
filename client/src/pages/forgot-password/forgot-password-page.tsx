import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { OTP_LENGTH, OTP_RESEND_COOLDOWN_SECONDS } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { normalizePassword, passwordProblem } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { ResendCodeButton } from '../../components/resend-code-button.tsx';
import { api, post } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { focusField } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import { cleanOtpInput, looksLikeOtp } from '../../lib/otp.ts';
import { useCooldown } from '../../lib/use-cooldown.ts';

type Field = 'email' | 'otp' | 'newPassword' | 'confirmPassword';

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: Field; message: string } | null>(null);
  const cooldown = useCooldown(OTP_RESEND_COOLDOWN_SECONDS);
  const otpRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (step === 2) otpRef.current?.focus();
  }, [step]);

  const fail = (field: Field, message: string) => {
    setProblem({ field, message });
    notify.error(message);
    focusField(formRef.current, field);
  };

  const sendCode = async (): Promise<boolean> => {
    const result = await post('/api/send-email-otp', { email: email.trim() });
    if (result.status === 200) {
      notify.success(UiMessage.otpSent);
      cooldown.start();
      return true;
    }
    notify.error(result.status === 429 ? errorText(result, UiMessage.failedToSendOtp) : UiMessage.failedToSendOtp);
    return false;
  };

  const requestCode = async () => {
    const address = email.trim();
    if (!address) return fail('email', UiMessage.enterEmailAddress);
    setProblem(null);
    setBusy(true);
    const check = await post<{ exists?: boolean }>('/api/check-email', { email: address });
    if (!check.ok) {
      setBusy(false);
      return notify.error(errorText(check, UiMessage.anErrorOccurred));
    }
    if (!check.data?.exists) {
      setBusy(false);
      return fail('email', UiMessage.emailDoesNotExist);
    }
    const sent = await sendCode();
    setBusy(false);
    if (sent) setStep(2);
  };

  const resend = async () => {
    setBusy(true);
    await sendCode();
    setBusy(false);
  };

  const resetPassword = async () => {
    if (newPassword !== confirmPassword) return fail('confirmPassword', UiMessage.passwordsDoNotMatch);
    const weak = passwordProblem(normalizePassword(newPassword));
    if (weak) return fail('newPassword', weak);
    if (!looksLikeOtp(otp)) return fail('otp', UiMessage.invalidOtp);
    setProblem(null);
    setBusy(true);
    const result = await api<{ success?: boolean }>('/api/users/update-password', {
      method: 'PUT',
      body: { email: email.trim(), otp: otp.trim(), newPassword },
    });
    setBusy(false);
    if (result.ok && result.data?.success) {
      notify.success(UiMessage.passwordResetSuccessful);
      navigate(Route.studentLogin, { replace: true });
    } else {
      notify.error(errorText(result, UiMessage.passwordResetFailed));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void (step === 1 ? requestCode() : resetPassword());
  };

  const errorProps = (field: Field) => ({
    error: problem?.field === field,
    helperText: problem?.field === field ? problem.message : undefined,
  });

  return (
    <FormCard
      title="Forgot Password"
      subtitle={
        step === 1
          ? 'Enter the e-mail address you registered with and we will send you a one-time code.'
          : `We have sent a ${OTP_LENGTH}-digit code to your e-mail address. Enter it below with your new password.`
      }
    >
      <PageTitle title="Forgot password" />
      <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
        <TextField
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={step === 2}
          {...errorProps('email')}
        />
        {step === 2 && (
          <>
            <Stack spacing={0.5}>
              <TextField
                label="OTP"
                name="otp"
                autoComplete="one-time-code"
                inputRef={otpRef}
                value={otp}
                onChange={(e) => setOtp(cleanOtpInput(e.target.value))}
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: OTP_LENGTH } }}
                {...errorProps('otp')}
              />
              <ResendCodeButton remaining={cooldown.remaining} busy={busy} onResend={resend} />
            </Stack>
            <PasswordField
              label="New Password"
              name="newPassword"
              autoComplete="new-password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              {...errorProps('newPassword')}
            />
            <PasswordField
              label="Confirm New Password"
              name="confirmPassword"
              autoComplete="new-password"
              value={confirmPassword}
              onChange={(e) => setConfirmPassword(e.target.value)}
              {...errorProps('confirmPassword')}
            />
          </>
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
          {step === 1 ? 'Send OTP' : 'Verify & Reset Password'}
        </Button>
      </Stack>
    </FormCard>
  );
}
