import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { asksForChallenge, LoginChallenge } from '../../components/login-challenge.tsx';
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

  const [challenge, setChallenge] = useState(0);

  // No client validation here (seed-spec §5): the server answers every case.
  const logIn = useCallback(
    async (altcha?: string) => {
      setBusy(true);
      const body = altcha ? { email, password, altcha } : { email, password };
      const result = await post<{ success?: boolean; token?: string }>('/api/admin/login', body);
      setBusy(false);
      const token = result.data?.token;
      if (result.ok && result.data?.success && token) {
        adminSession.save(token);
        navigate(Route.adminDashboard, { replace: true });
        return;
      }
      // Under a password spray the server asks for a proof of work; solved, the login goes again.
      if (asksForChallenge(result)) setChallenge((round) => round + 1);
      notify.error(errorText(result, UiMessage.loginFailed));
    },
    [email, password, navigate],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void logIn();
  };

  const solved = useCallback((payload: string | null) => void (payload && logIn(payload)), [logIn]);

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
        <LoginChallenge round={challenge} onSolved={solved} />
        <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
          {busy ? 'Logging in...' : 'Login'}
        </Button>
      </Stack>
    </FormCard>
  );
}
