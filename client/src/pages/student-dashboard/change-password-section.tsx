import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { RegistrationMessage } from '@tc/domain/messages';
import { PasswordChangeMessage } from '@tc/domain/password-change-messages';
import { normalizePassword, passwordProblem } from '@tc/domain/registration';
import { FormMessage } from '../../components/form-message.tsx';
import { asksForChallenge, LoginChallenge } from '../../components/login-challenge.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { errorField, errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { studentSession } from '../../lib/session.ts';
import { useApi } from '../../lib/use-api.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * "Change password" on the student dashboard: the current password, the new one
 * with the registration's rules shown before sending, and its confirmation. The
 * server checks the current one like a login and ends every other session.
 */
export function ChangePasswordSection() {
  const { call: callAsStudent } = useApi('student');
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
    const result = await callAsStudent('changeMyPassword', {
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
      ...(altcha ? { altcha } : {}),
    });
    if (result.ok && result.data) {
      // The server answered a new session token (every other session ended): the page goes on with it.
      studentSession.save(result.data.tokenStudent);
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
    <Card component="section" aria-labelledby="password-heading" sx={{ p: { xs: 2.5, sm: 4 }, mt: 3 }}>
      <Typography id="password-heading" variant="h2" sx={{ mb: 2 }}>
        Change password
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
        <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: { sm: 'flex-start' } }}>
          {busy ? 'Changing password...' : 'Change password'}
        </Button>
      </Stack>
    </Card>
  );
}
