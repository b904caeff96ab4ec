import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { post } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { adminSession } from '../../lib/session.ts';

export default function AdminLoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  // Checked after the first render, which must match the pre-rendered page.
  useEffect(() => {
    if (adminSession.token()) navigate(Route.adminDashboard, { replace: true });
  }, [navigate]);

  // No client validation here (seed-spec §5): the server answers every case.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const result = await post<{ success?: boolean; token?: string }>('/api/admin/login', { email, password });
    setBusy(false);
    const token = result.data?.token;
    if (result.ok && result.data?.success && token) {
      adminSession.save(token);
      navigate(Route.adminDashboard, { replace: true });
    } else {
      notify.error(errorText(result, UiMessage.loginFailed));
    }
  };

  return (
    <FormCard title="Manage Student Records" subtitle="Administrators log in here to view and update student details.">
      <PageTitle title="Admin login" />
      <Stack component="form" noValidate spacing={2.5} onSubmit={submit}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
          {busy ? 'Logging in...' : 'Login'}
        </Button>
      </Stack>
    </FormCard>
  );
}
