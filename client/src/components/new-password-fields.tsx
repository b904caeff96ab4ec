import { passwordHint } from '../lib/password-strength.ts';
import { PasswordField } from './password-field.tsx';

/** What `useFormProblem().fieldProps` gives a field: its error state and message. */
interface FieldState {
  error?: boolean;
  helperText?: string;
}

interface NewPasswordFieldsProps {
  newPassword: string;
  confirmPassword: string;
  onChange: (field: 'newPassword' | 'confirmPassword', value: string) => void;
  fieldProps: (field: 'newPassword' | 'confirmPassword') => FieldState;
}

/**
 * "New Password" with the password rules and a strength hint under it until there is an
 * error to show instead, and "Confirm New Password": the pair the password reset and the
 * student's change of password share.
 */
export function NewPasswordFields({ newPassword, confirmPassword, onChange, fieldProps }: NewPasswordFieldsProps) {
  const state = fieldProps('newPassword');
  return (
    <>
      <PasswordField
        label="New Password"
        name="newPassword"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => onChange('newPassword', e.target.value)}
        error={state.error}
        helperText={state.helperText ?? passwordHint(newPassword)}
      />
      <PasswordField
        label="Confirm New Password"
        name="confirmPassword"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(e) => onChange('confirmPassword', e.target.value)}
        {...fieldProps('confirmPassword')}
      />
    </>
  );
}
