import Stack from '@mui/material/Stack';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { RegistrationMessage, UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { asksForChallenge, LoginChallenge } from '../../components/login-challenge.tsx';
import { FormMessage } from '../../components/form-message.tsx';
import { OutlinedField } from '../../components/outlined-field.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { call } from '../../lib/api.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { adminSession } from '../../lib/session.ts';
import { useEarlyInput } from '../../lib/use-early-input.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';

const FIELDS = ['email', 'password'] as const;

export default function AdminLoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { formRef, problem, fail, changed, run, busy, fieldProps } = useFormProblem(FIELDS);

  // Checked after the first render, which must match the pre-rendered page.
  useEffect(() => {
    if (adminSession.token()) navigate(Route.adminDashboard, { replace: true });
  }, [navigate]);

  // What was typed before the page's code arrived.
  useEarlyInput(formRef, (name, value) => {
    if (typeof value !== 'string') return;
    if (name === 'email') setEmail(value);
    if (name === 'password') setPassword(value);
  });

  const [challenge, setChallenge] = useState(0);

  // The server answers every case; only an empty password is caught
  // here, where Parse's own words ("password is required.") would otherwise show.
  const login = async (altcha?: string) => {
    if (email.trim() && !password) return fail(RegistrationMessage.passwordRequired, 'password');
    const result = await call('loginAdmin', { email, password, ...(altcha ? { altcha } : {}) });
    const token = result.data?.token;
    if (!result.ok || !result.data?.success || !token) {
      // Under a password spray the server asks for a proof of work; solved, the login goes again.
      if (asksForChallenge(result)) setChallenge((round) => round + 1);
      return fail(errorText(result, UiMessage.loginFailed), errorField(result));
    }
    adminSession.save(token);
    // An error toast of a mistyped attempt no longer applies.
    notify.dismiss();
    navigate(Route.adminDashboard, { replace: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => login());
  };

  const solved = (payload: string | null) => {
    if (payload) void run(() => login(payload));
  };

  return (
    <FormCard title="Manage Student Records" subtitle="Administrators log in here to view and update student details.">
      <PageTitle title="Admin login" />
      <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
        <OutlinedField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            changed('email');
          }}
          {...fieldProps('email')}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            changed('password');
          }}
          {...fieldProps('password')}
        />
        <LoginChallenge round={challenge} onSolved={solved} />
        <FormMessage problem={problem} />
        <SubmitButton busy={busy}>{busy ? 'Logging in...' : 'Login'}</SubmitButton>
      </Stack>
    </FormCard>
  );
}
