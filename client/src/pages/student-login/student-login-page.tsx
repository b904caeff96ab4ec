import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { asksForChallenge, LoginChallenge } from '../../components/login-challenge.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { post } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { focusField } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import { studentSession } from '../../lib/session.ts';

type Field = 'identifier' | 'password';

export default function StudentLoginPage() {
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: Field; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Checked after the first render, which must match the pre-rendered page.
  useEffect(() => {
    if (studentSession.token()) navigate(Route.dashboard, { replace: true });
  }, [navigate]);

  const fail = (field: Field, message: string) => {
    setProblem({ field, message });
    notify.error(message);
    focusField(formRef.current, field);
  };

  const [challenge, setChallenge] = useState(0);

  const logIn = useCallback(
    async (altcha?: string) => {
      const id = identifier.trim();
      const pass = password.trim();
      if (!id) return fail('identifier', UiMessage.enterIdentifier);
      if (!pass) return fail('password', UiMessage.enterPassword);
      setProblem(null);
      setBusy(true);
      const body = altcha ? { identifier: id, password: pass, altcha } : { identifier: id, password: pass };
      const result = await post<{ tokenStudent?: string }>('/api/student/login', body);
      setBusy(false);
      const token = result.data?.tokenStudent;
      if (result.ok && token) {
        studentSession.save(token);
        notify.success(UiMessage.loginSuccessful);
        navigate(Route.dashboard, { replace: true });
        return;
      }
      // Under a password spray the server asks for a proof of work; solved, the login goes again.
      if (asksForChallenge(result)) setChallenge((round) => round + 1);
      notify.error(errorText(result, UiMessage.loginFailed));
    },
    [identifier, password, navigate],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void logIn();
  };

  const solved = useCallback((payload: string | null) => void (payload && logIn(payload)), [logIn]);

  const helper = (field: Field) => (problem?.field === field ? problem.message : undefined);

  return (
    <FormCard title="NICE TO SEE YOU" subtitle="Log in to see your profile, progress and study schedule.">
      <PageTitle title="Student login" />
      <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
        <TextField
          label="Email ID or Mobile Number"
          name="identifier"
          autoComplete="username"
          value={identifier}
          onChange={(e) => setIdentifier(e.target.value)}
          error={problem?.field === 'identifier'}
          helperText={helper('identifier')}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={problem?.field === 'password'}
          helperText={helper('password')}
        />
        <LoginChallenge round={challenge} onSolved={solved} />
        <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
          {busy ? 'Logging in...' : 'Login'}
        </Button>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
          <LinkButton to={Route.forgotPassword} variant="text">
            Forgot Password
          </LinkButton>
          <LinkButton to="/Registeruser" variant="text">
            Register now
          </LinkButton>
        </Stack>
      </Stack>
    </FormCard>
  );
}
