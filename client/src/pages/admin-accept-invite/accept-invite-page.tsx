import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { RegistrationMessage } from '@tc/domain/messages';
import { normalizeEmail, normalizePassword, passwordProblem } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import { FormMessage } from '../../components/form-message.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { call } from '../../lib/api.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { cleanOtpInput } from '../../lib/otp.ts';
import { passwordHint } from '../../lib/password-strength.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';

const FIELDS = ['email', 'otp', 'password'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Accepting an admin invitation: the mailed code and a new password. A failure is said under
 * its field, or on the form, with the focus moved there (so a screen reader reads it), and a
 * toast; it goes once the field is changed (lib/use-form-problem.ts).
 */
export default function AcceptInvitePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form, setForm] = useState({ email: params.get('email') ?? '', otp: '', password: '' });
  const { formRef, problem, fail, changed, run, busy, fieldProps } = useFormProblem(FIELDS);

  const set = (field: Field, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    changed(field);
  };

  const accept = async () => {
    // The rules of domain/, before asking; the server runs them again.
    if (!normalizeEmail(form.email)) return fail(RegistrationMessage.emailRequired, 'email');
    const passwordRefused = passwordProblem(normalizePassword(form.password));
    if (passwordRefused) return fail(passwordRefused, 'password');
    const result = await call('acceptAdminInvite', form);
    if (result.ok) {
      notify.success('Your password is set. Please log in.');
      void navigate(Route.adminLogin);
    } else fail(errorText(result, 'The invitation could not be accepted'), errorField(result));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(accept);
  };

  return (
    <Box sx={{ width: '100%', maxWidth: 480, mx: 'auto', px: 2, py: { xs: 3, sm: 5 } }}>
      <PageTitle title="Accept invitation" />
      <Card component="form" ref={formRef} onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
        <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 1 }}>
          Become an administrator
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Enter the code from your invitation e-mail and choose a password.
        </Typography>
        <Stack spacing={2}>
          <TextField
            label="Email"
            name="email"
            type="email"
            value={form.email}
            onChange={(e) => set('email', e.target.value)}
            autoComplete="username"
            {...fieldProps('email')}
            required
          />
          <TextField
            label="Code"
            name="otp"
            value={form.otp}
            // Digits only, six at most: a code pasted with a space before it keeps every digit.
            onChange={(e) => set('otp', cleanOtpInput(e.target.value))}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
            {...fieldProps('otp')}
            required
          />
          <PasswordField
            label="Password"
            name="password"
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
            autoComplete="new-password"
            {...fieldProps('password')}
            // The rules before sending, and the password's strength as it is typed.
            helperText={fieldProps('password').helperText ?? passwordHint(form.password)}
            required
          />
          <FormMessage problem={problem} />
          <InertButton type="submit" variant="contained" unavailable={busy}>
            {busy ? 'Saving...' : 'Set password'}
          </InertButton>
        </Stack>
      </Card>
    </Box>
  );
}
