import Stack from '@mui/material/Stack';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { UiMessage } from '@tc/domain/messages';
import { LinkTo, Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { FormMessage } from '../../components/form-message.tsx';
import { OutlinedField } from '../../components/outlined-field.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { asksForChallenge, LoginChallenge } from '../../components/login-challenge.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { call } from '../../lib/api.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { studentSession } from '../../lib/session.ts';
import { useEarlyInput } from '../../lib/use-early-input.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';

const FIELDS = ['identifier', 'password'] as const;

export default function StudentLoginPage() {
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const { formRef, problem, fail, changed, run, busy, fieldProps } = useFormProblem(FIELDS);

  // Checked after the first render, which must match the pre-rendered page.
  useEffect(() => {
    if (studentSession.token()) navigate(Route.dashboard, { replace: true });
  }, [navigate]);

  // What was typed before the page's code arrived.
  useEarlyInput(formRef, (name, value) => {
    if (typeof value !== 'string') return;
    if (name === 'identifier') setIdentifier(value);
    if (name === 'password') setPassword(value);
  });

  const [challenge, setChallenge] = useState(0);

  const login = async (altcha?: string) => {
    const id = identifier.trim();
    const pass = password.trim();
    if (!id) return fail(UiMessage.enterIdentifier, 'identifier');
    if (!pass) return fail(UiMessage.enterPassword, 'password');
    const result = await call('loginStudent', { identifier: id, password: pass, ...(altcha ? { altcha } : {}) });
    const token = result.data?.tokenStudent;
    if (!result.ok || !token) {
      // Under a password spray the server asks for a proof of work; solved, the login goes again.
      if (asksForChallenge(result)) setChallenge((round) => round + 1);
      return fail(errorText(result, UiMessage.loginFailed), errorField(result));
    }
    studentSession.save(token);
    notify.success(UiMessage.loginSuccessful);
    navigate(Route.dashboard, { replace: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => login());
  };

  const solved = (payload: string | null) => {
    if (payload) void run(() => login(payload));
  };

  return (
    <FormCard title="NICE TO SEE YOU" subtitle="Log in to see your profile, progress and study schedule.">
      <PageTitle title="Student login" />
      <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
        <OutlinedField
          label="Email ID or Mobile Number"
          name="identifier"
          autoComplete="username"
          value={identifier}
          onChange={(e) => {
            setIdentifier(e.target.value);
            changed('identifier');
          }}
          {...fieldProps('identifier')}
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
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
          <LinkButton to={Route.forgotPassword} variant="text">
            Forgot Password
          </LinkButton>
          <LinkButton to={LinkTo.register} variant="text">
            Register now
          </LinkButton>
        </Stack>
      </Stack>
    </FormCard>
  );
}
