import Stack from '@mui/material/Stack';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { UiMessage } from '@tc/domain/messages';
import type { ApiResult } from '../lib/api.ts';
import { errorField, errorText } from '../lib/errors.ts';
import { useEarlyInput } from '../lib/use-early-input.ts';
import { useFormProblem } from '../lib/use-form-problem.ts';
import { FormMessage } from './form-message.tsx';
import { asksForChallenge, LoginChallenge } from './login-challenge.tsx';
import { OutlinedField } from './outlined-field.tsx';
import { PasswordField } from './password-field.tsx';
import { SubmitButton } from './submit-button.tsx';

/** A problem the browser can see before asking the server (which checks everything again). */
export interface LoginPrecheck {
  message: string;
  field: string;
}

/** The server's answer to one attempt: the session token, or the failed result to explain. */
export interface LoginAttempt {
  token: string | null;
  result: ApiResult<unknown>;
}

interface LoginFormProps {
  /** The first field: an e-mail for admins, an e-mail or mobile number for students. */
  idField: { name: string; label: string; type?: string };
  /** Checks before the request (the student's form); none on the admin's. */
  precheck?: (id: string, password: string) => LoginPrecheck | null;
  attempt: (id: string, password: string, altcha?: string) => Promise<LoginAttempt>;
  onLoggedIn: (token: string) => void;
  /** Links under the button. */
  children?: ReactNode;
}

/**
 * The login form both login pages share: the two fields, the error on the form until the
 * user changes something, and the proof-of-work challenge the server asks for under a
 * password spray (solved, the login goes again).
 */
export function LoginForm({ idField, precheck, attempt, onLoggedIn, children }: LoginFormProps) {
  const [id, setId] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState(0);
  const { formRef, problem, fail, changed, run, busy, fieldProps } = useFormProblem([idField.name, 'password']);

  // What was typed before the page's code arrived.
  useEarlyInput(formRef, (name, value) => {
    if (typeof value !== 'string') return;
    if (name === idField.name) setId(value);
    if (name === 'password') setPassword(value);
  });

  // The fields a challenge was asked with, and its solution until a login takes it (once).
  const askedWith = useRef<{ id: string; password: string } | null>(null);
  const solution = useRef<string | null>(null);

  const login = async () => {
    const early = precheck?.(id, password);
    if (early) return fail(early.message, early.field);
    const altcha = solution.current ?? undefined;
    solution.current = null;
    const { token, result } = await attempt(id, password, altcha);
    if (token) return onLoggedIn(token);
    if (asksForChallenge(result)) {
      askedWith.current = { id, password };
      setChallenge((round) => round + 1);
    }
    fail(errorText(result, UiMessage.loginFailed), errorField(result));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => login());
  };

  // Solved, the login goes again on its own with the fields the challenge was asked with; with
  // fields changed since (a password being typed again), it waits for the next Login press,
  // rather than send half a password as a failed try.
  const solved = (payload: string | null) => {
    solution.current = payload;
    const asked = askedWith.current;
    if (payload && asked && asked.id === id && asked.password === password) void run(() => login());
  };

  return (
    <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
      <OutlinedField
        label={idField.label}
        name={idField.name}
        type={idField.type}
        autoComplete="username"
        // An e-mail or a mobile: a phone's keyboard must not capitalise or "correct" it.
        htmlInput={{ autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false }}
        value={id}
        onChange={(e) => {
          setId(e.target.value);
          changed(idField.name);
        }}
        {...fieldProps(idField.name)}
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
      {children}
    </Stack>
  );
}
