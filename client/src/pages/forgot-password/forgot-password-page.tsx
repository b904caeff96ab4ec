import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { OTP_LENGTH } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { normalizePassword, passwordProblem } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { FormMessage } from '../../components/form-message.tsx';
import { OutlinedField } from '../../components/outlined-field.tsx';
import { OtpStep } from '../../components/otp-step.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { call } from '../../lib/api.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { focusField } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import { looksLikeOtp } from '../../lib/otp.ts';
import { useCodeSender } from '../../lib/use-code-sender.ts';
import { useEarlyInput } from '../../lib/use-early-input.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';

const FIELDS = ['email', 'otp', 'newPassword', 'confirmPassword'] as const;
type Field = (typeof FIELDS)[number];

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [values, setValues] = useState<Record<Field, string>>({
    email: '',
    otp: '',
    newPassword: '',
    confirmPassword: '',
  });
  const { formRef, problem, setProblem, clearProblem, fail, changed, run, busy, fieldProps } = useFormProblem(FIELDS);
  // A code sent: what was wrong before (a wrong code, a refused resend) is over.
  const code = useCodeSender(fail, clearProblem);
  const email = values.email.trim();

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    changed(field);
  };

  // What was typed before the page's code arrived.
  useEarlyInput(formRef, (name, value) => {
    if (name === 'email' && typeof value === 'string') set('email', value);
  });

  const sendCode = () => code.send(() => call('sendResetCode', { email }));

  const requestCode = async () => {
    if (!email) return fail(UiMessage.enterEmailAddress, 'email');
    const check = await call('checkEmail', { email });
    // A malformed address is refused by the server under the field, as registration shows it.
    if (!check.ok) return fail(errorText(check, UiMessage.anErrorOccurred), errorField(check));
    if (!check.data?.exists) return fail(UiMessage.emailDoesNotExist, 'email');
    if (await sendCode()) setStep(2);
  };

  const resetPassword = async () => {
    const { otp, newPassword, confirmPassword } = values;
    // The new password's rules first, then the confirmation, as registration checks them;
    // compared as they will be stored (trimmed).
    const weak = passwordProblem(normalizePassword(newPassword));
    if (weak) return fail(weak, 'newPassword');
    if (normalizePassword(newPassword) !== normalizePassword(confirmPassword)) {
      return fail(UiMessage.passwordsDoNotMatch, 'confirmPassword');
    }
    if (!looksLikeOtp(otp)) return fail(UiMessage.invalidOtp, 'otp');
    const result = await call('resetPassword', { email, otp: otp.trim(), newPassword });
    if (!result.ok || !result.data?.success) {
      return fail(errorText(result, UiMessage.passwordResetFailed), errorField(result));
    }
    notify.success(UiMessage.passwordResetSuccessful);
    void navigate(Route.studentLogin, { replace: true });
  };

  /** Back to step 1 with the e-mail field ready to change (a typo, another account). */
  const changeEmail = () => {
    setStep(1);
    setProblem(null);
    setValues((current) => ({ ...current, otp: '', newPassword: '', confirmPassword: '' }));
    focusField(formRef.current, 'email');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(step === 1 ? requestCode : resetPassword);
  };

  const otp = fieldProps('otp');
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
        <OutlinedField
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
          disabled={step === 2}
          {...fieldProps('email')}
        />
        {step === 2 && (
          <>
            <Button onClick={changeEmail} sx={{ alignSelf: 'flex-start', px: 1, mt: '8px !important' }}>
              Use a different e-mail
            </Button>
            <OtpStep
              value={values.otp}
              onChange={(value) => set('otp', value)}
              remaining={code.remaining}
              busy={busy}
              onResend={() => run(sendCode)}
              sentTo={email}
              error={otp.error}
              helperText={otp.helperText}
            />
            <NewPasswordFields
              newPassword={values.newPassword}
              confirmPassword={values.confirmPassword}
              onChange={set}
              fieldProps={fieldProps}
            />
          </>
        )}
        <FormMessage problem={problem} />
        <SubmitButton busy={busy}>{step === 1 ? 'Send OTP' : 'Verify & Reset Password'}</SubmitButton>
      </Stack>
    </FormCard>
  );
}
