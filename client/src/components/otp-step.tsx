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
 * Focuses the code field and brings the form's button into view with it: the
 * "OTP sent" toast at the bottom of a phone's screen would otherwise lie over the
 * button and the checkbox above it for five seconds. The page's scroll padding
 * (styles/site.css) keeps what is scrolled into view above the toast.
 */
function focusCode(input: HTMLInputElement | null): void {
  if (!input) return;
  input.focus({ preventScroll: true });
  const button = input.form?.querySelector<HTMLElement>('button[type="submit"]');
  (button ?? input).scrollIntoView({ block: 'nearest' });
  // A short screen: the code field itself comes first.
  if (input.getBoundingClientRect().top < 0) input.scrollIntoView({ block: 'start' });
}

/**
 * The one-time-code step of registration and of the password reset: the code field
 * (focused when it appears and after a resend) and the resend button with its
 * cooldown. The countdown is not a live region: a screen reader would read it
 * every second.
 */
export function OtpStep({ value, onChange, remaining, busy, onResend, sentTo, error, helperText }: OtpStepProps) {
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => focusCode(inputRef.current), []);

  const resend = async () => {
    await onResend();
    focusCode(inputRef.current);
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
        // No maxLength: the browser would cut a pasted " 123456" to " 12345" before the digits are
        // kept (cleanOtpInput keeps six at most).
        htmlInput={{ inputMode: 'numeric' }}
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
