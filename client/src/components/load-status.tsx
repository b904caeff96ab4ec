import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef } from 'react';

interface LoadStatusProps {
  /** The load failed: say so, rather than "Loading" for ever. */
  failed: boolean;
  failedText: string;
  /** The seed's screens say "Loading ..." and "Loading..." both. */
  loadingText?: string;
  /** Loads again: a failure then offers "Try again" (a phone's network comes back). */
  onRetry?: () => void;
  /** What takes the focus from the status when what it loaded comes in its place (its heading). */
  focusAfterLoad?: () => HTMLElement | null;
}

/**
 * In place of a list while it loads, or when it could not be loaded. The status
 * stays one element whichever it says, so that a screen reader announces each
 * change; "Try again" hands the focus to it (the button goes while it loads). When what
 * it loaded takes its place, the focus goes on to `focusAfterLoad()` if the page names
 * it (what came in its place); else it falls to the page's body, as the browser leaves it.
 */
export function LoadStatus({
  failed,
  failedText,
  loadingText = 'Loading...',
  onRetry,
  focusAfterLoad,
}: LoadStatusProps) {
  const status = useRef<HTMLElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const focusNext = useRef(focusAfterLoad);
  useLayoutEffect(() => {
    focusNext.current = focusAfterLoad;
  });
  useLayoutEffect(
    () => () => {
      // Still in the document here (a layout effect's clean-up comes before the removal).
      if (!focusNext.current || !root.current?.contains(document.activeElement)) return;
      const next = focusNext.current;
      requestAnimationFrame(() => {
        // Only if nothing else has taken the focus meanwhile (it fell to the page's body).
        if (document.activeElement !== document.body && document.activeElement !== null) return;
        const target = next();
        if (!target) return;
        if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
        target.focus();
      });
    },
    [],
  );
  return (
    <Stack ref={root} direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
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
