import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Route } from '@tc/domain/routes';
import { InertButton } from '../../components/inert-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { call } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { cleanOtpInput } from '../../lib/otp.ts';

/** Accepting an admin invitation: the mailed code and a new password. */
export default function AcceptInvitePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form, setForm] = useState({ email: params.get('email') ?? '', otp: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field?: string; text: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await call('acceptAdminInvite', form);
    setBusy(false);
    if (result.ok) {
      notify.success('Your password is set. Please log in.');
      void navigate(Route.adminLogin);
    } else {
      const body = result.data as { field?: string } | null;
      setError({ field: body?.field, text: errorText(result, 'The invitation could not be accepted') });
    }
  };

  const fieldError = (field: string) => (error?.field === field ? error.text : undefined);

  return (
    <Box sx={{ width: '100%', maxWidth: 480, mx: 'auto', px: 2, py: { xs: 3, sm: 5 } }}>
      <PageTitle title="Accept invitation" />
      <Card component="form" onSubmit={(event) => void submit(event)} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
        <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 1 }}>
          Become an administrator
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Enter the code from your invitation e-mail and choose a password.
        </Typography>
        <Stack spacing={2}>
          <TextField
            label="Email"
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
            autoComplete="username"
            error={Boolean(fieldError('email'))}
            helperText={fieldError('email')}
            required
          />
          <TextField
            label="Code"
            value={form.otp}
            // Digits only, six at most: a code pasted with a space before it keeps every digit.
            onChange={(e) => setForm({ ...form, otp: cleanOtpInput(e.target.value) })}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
            error={Boolean(fieldError('otp'))}
            helperText={fieldError('otp')}
            required
          />
          <PasswordField
            label="Password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
            autoComplete="new-password"
            error={Boolean(fieldError('password'))}
            helperText={fieldError('password')}
            required
          />
          {error && !error.field && (
            <Typography role="alert" color="error">
              {error.text}
            </Typography>
          )}
          <InertButton type="submit" variant="contained" unavailable={busy}>
            {busy ? 'Saving...' : 'Set password'}
          </InertButton>
        </Stack>
      </Card>
    </Box>
  );
}
