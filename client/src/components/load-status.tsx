import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';

interface LoadStatusProps {
  /** The load failed: say so, rather than "Loading" for ever. */
  failed: boolean;
  failedText: string;
  /** The seed's screens say "Loading ..." and "Loading..." both. */
  loadingText?: string;
  /** Loads again: a failure then offers "Try again" (a phone's network comes back). */
  onRetry?: () => void;
}

/**
 * In place of a list while it loads, or when it could not be loaded. The status
 * stays one element whichever it says, so that a screen reader announces each
 * change; "Try again" hands the focus to it (the button goes while it loads).
 */
export function LoadStatus({ failed, failedText, loadingText = 'Loading...', onRetry }: LoadStatusProps) {
  const status = useRef<HTMLElement>(null);
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography role="status" ref={status} tabIndex={-1} sx={{ outline: 'none' }}>
        {failed ? failedText : loadingText}
      </Typography>
      {failed && onRetry && (
        <Button
          variant="outlined"
          onClick={() => {
            status.current?.focus();
            onRetry();
          }}
        >
          Try again
        </Button>
      )}
    </Stack>
  );
}
