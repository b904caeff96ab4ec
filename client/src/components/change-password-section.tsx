import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { RegistrationMessage } from '@tc/domain/messages';
import { PasswordChangeMessage } from '@tc/domain/password-change-messages';
import { normalizePassword, passwordProblem } from '@tc/domain/registration';
import { errorField, errorText } from '../lib/errors.ts';
import { notify } from '../lib/notify.ts';
import { adminSession, studentSession } from '../lib/session.ts';
import { useApi } from '../lib/use-api.ts';
import { useFormProblem } from '../lib/use-form-problem.ts';
import { FormMessage } from './form-message.tsx';
import { InertButton } from './inert-button.tsx';
import { asksForChallenge, LoginChallenge } from './login-challenge.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { PasswordField } from './password-field.tsx';

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * "Change password" on the student dashboard and the Admins page: the current password,
 * the new one with the registration's rules shown before sending, and its confirmation.
 * The server checks the current one like a login (a proof of work under a password
 * spray) and ends every other session of the account.
 */
export function ChangePasswordSection({
  role,
  heading = 'Change password',
  sx,
  headingSize,
}: {
  role: 'student' | 'admin';
  heading?: string;
  sx?: SxProps<Theme>;
  /** A smaller heading where the page's other cards have one. */
  headingSize?: string;
}) {
  const { call } = useApi(role);
  const [values, setValues] = useState(EMPTY);
  const [challenge, setChallenge] = useState(0);
  const { formRef, problem, fail, changed, run, busy, fieldProps } = useFormProblem(FIELDS);

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    changed(field);
  };

  const change = async (altcha?: string) => {
    // The rules of domain/, for instant feedback; the server runs them again.
    if (!normalizePassword(values.currentPassword)) {
      return fail(PasswordChangeMessage.currentRequired, 'currentPassword');
    }
    const problemWithNew = passwordProblem(normalizePassword(values.newPassword));
    if (problemWithNew) return fail(problemWithNew, 'newPassword');
    if (normalizePassword(values.newPassword) !== normalizePassword(values.confirmPassword)) {
      return fail(RegistrationMessage.passwordsDoNotMatch, 'confirmPassword');
    }
    const input = {
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
      ...(altcha ? { altcha } : {}),
    };
    // The server answers a new session token (every other session ended): the page goes on with it.
    const result =
      role === 'student'
        ? await call('changeMyPassword', input).then((r) => ({ ...r, token: r.data?.tokenStudent }))
        : await call('changeAdminPassword', input).then((r) => ({ ...r, token: r.data?.token }));
    if (result.ok && result.token) {
      (role === 'student' ? studentSession : adminSession).save(result.token);
      setValues(EMPTY);
      setChallenge(0);
      notify.success(PasswordChangeMessage.changed);
      return;
    }
    if (result.sessionEnded) return;
    // Under a password spray the server asks for a proof of work, as at login.
    if (asksForChallenge(result)) setChallenge((round) => round + 1);
    return fail(errorText(result, PasswordChangeMessage.failed), errorField(result));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => change());
  };

  return (
    <Card component="section" aria-labelledby="password-heading" sx={sx}>
      <Typography id="password-heading" variant="h2" sx={{ mb: 2, fontSize: headingSize }}>
        {heading}
      </Typography>
      <Stack component="form" ref={formRef} noValidate spacing={2} onSubmit={submit} sx={{ maxWidth: { sm: 420 } }}>
        <PasswordField
          label="Current Password"
          name="currentPassword"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(e) => set('currentPassword', e.target.value)}
          {...fieldProps('currentPassword')}
        />
        <NewPasswordFields
          newPassword={values.newPassword}
          confirmPassword={values.confirmPassword}
          onChange={set}
          fieldProps={fieldProps}
        />
        <Typography variant="body2" color="text.secondary">
          Your other devices will be logged out; you stay logged in here.
        </Typography>
        <LoginChallenge round={challenge} onSolved={(payload) => payload && void run(() => change(payload))} />
        <FormMessage problem={problem} />
        <InertButton type="submit" variant="contained" unavailable={busy} sx={{ alignSelf: { sm: 'flex-start' } }}>
          {busy ? 'Changing password...' : 'Change password'}
        </InertButton>
      </Stack>
    </Card>
  );
}
