import Button from '@mui/material/Button';

interface ResendCodeButtonProps {
  remaining: number;
  busy?: boolean;
  onResend: () => void;
}

/** Sends the code again once the cooldown is over (product.md §4: 30 s per target). */
export function ResendCodeButton({ remaining, busy = false, onResend }: ResendCodeButtonProps) {
  return (
    <Button
      onClick={onResend}
      disabled={remaining > 0 || busy}
      aria-live="polite"
      sx={{ alignSelf: 'flex-start', px: 1 }}
    >
      {remaining > 0 ? `Resend code in ${remaining}s` : 'Resend code'}
    </Button>
  );
}
