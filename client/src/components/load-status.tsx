import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface LoadStatusProps {
  /** The load failed: say so, rather than "Loading" for ever. */
  failed: boolean;
  failedText: string;
  /** The seed's screens say "Loading ..." and "Loading..." both. */
  loadingText?: string;
  /** Loads again: a failure then offers "Try again" (a phone's network comes back). */
  onRetry?: () => void;
}

/** In place of a list while it loads, or when it could not be loaded. */
export function LoadStatus({ failed, failedText, loadingText = 'Loading...', onRetry }: LoadStatusProps) {
  if (failed && onRetry) {
    return (
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography role="status">{failedText}</Typography>
        <Button variant="outlined" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    );
  }
  return <Typography role="status">{failed ? failedText : loadingText}</Typography>;
}
