import Typography from '@mui/material/Typography';

interface LoadStatusProps {
  /** The load failed: say so, rather than "Loading" for ever. */
  failed: boolean;
  failedText: string;
  /** The seed's screens say "Loading ..." and "Loading..." both. */
  loadingText?: string;
}

/** In place of a list while it loads, or when it could not be loaded. */
export function LoadStatus({ failed, failedText, loadingText = 'Loading...' }: LoadStatusProps) {
  return <Typography role="status">{failed ? failedText : loadingText}</Typography>;
}
