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
}

/** What can take the focus from a status that has gone: a heading first, else a control. */
const HEADINGS = 'h1, h2, h3, h4, h5, h6';
const CONTROLS = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]';

/**
 * Where the focus goes when a status that held it gives way to what it loaded: the first
 * heading (else control) that now stands where the status stood, else the page's heading.
 */
function focusWhatLoaded(container: Element, previous: Element | null): void {
  // What held the status may itself have given way (a whole section replaced): then the page.
  const parent = container.isConnected ? container : document.body;
  const before = previous?.isConnected ? previous : null;
  const after = (element: Element) =>
    !before ||
    (before.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING && !before.contains(element));
  const first = (selector: string) => [...parent.querySelectorAll<HTMLElement>(selector)].find(after);
  const target = first(HEADINGS) ?? first(CONTROLS) ?? document.querySelector<HTMLElement>('h1');
  if (!target) return;
  if (target.matches(HEADINGS) && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}

/**
 * In place of a list while it loads, or when it could not be loaded. The status
 * stays one element whichever it says, so that a screen reader announces each
 * change; "Try again" hands the focus to it (the button goes while it loads), and
 * when what it loaded takes its place the focus goes on to that (its first heading),
 * not back to the page's start.
 */
export function LoadStatus({ failed, failedText, loadingText = 'Loading...', onRetry }: LoadStatusProps) {
  const status = useRef<HTMLElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(
    () => () => {
      // Still in the document here (a layout effect's clean-up comes before the removal).
      const element = root.current;
      const parent = element?.parentElement;
      if (!element || !parent || !element.contains(document.activeElement)) return;
      const before = element.previousElementSibling;
      requestAnimationFrame(() => {
        // Only if nothing else has taken the focus meanwhile (it went to the page's body).
        if (document.activeElement === document.body || document.activeElement === null) {
          focusWhatLoaded(parent, before);
        }
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
