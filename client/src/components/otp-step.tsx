import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useRef } from 'react';
import { OTP_LENGTH } from '@tc/domain/constants';
import { cleanOtpInput } from '../lib/otp.ts';
import { OutlinedField } from './outlined-field.tsx';

interface OtpStepProps {
  value: string;
  onChange: (value: string) => void;
  /** Seconds before the code may be sent again (30 s per target). */
  remaining: number;
  busy: boolean;
  onResend: () => Promise<unknown>;
  /** Where the code went, said under the field. */
  sentTo: string;
  error: boolean;
  helperText?: string;
}

/**
 * The one-time-code step of registration and of the password reset: the code field
 * (focused when it appears and after a resend) and the resend button with its
 * cooldown. The countdown is not a live region: a screen reader would read it
 * every second.
 */
export function OtpStep({ value, onChange, remaining, busy, onResend, sentTo, error, helperText }: OtpStepProps) {
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const resend = async () => {
    await onResend();
    inputRef.current?.focus();
  };

  return (
    <Stack spacing={0.5}>
      <OutlinedField
        label="OTP"
        name="otp"
        autoComplete="one-time-code"
        inputRef={inputRef}
        value={value}
        onChange={(e) => onChange(cleanOtpInput(e.target.value))}
        htmlInput={{ inputMode: 'numeric', maxLength: OTP_LENGTH }}
        error={error}
        helperText={helperText ?? `Enter the ${OTP_LENGTH}-digit code we sent to ${sentTo}`}
      />
      <Button
        onClick={() => void resend()}
        disabled={remaining > 0 || busy}
        // A disabled button keeps readable text (WCAG exempts it, parents do not).
        sx={{ alignSelf: 'flex-start', px: 1, '&.Mui-disabled': { color: 'text.secondary' } }}
      >
        {remaining > 0 ? `Resend code in ${remaining}s` : 'Resend code'}
      </Button>
    </Stack>
  );
}
