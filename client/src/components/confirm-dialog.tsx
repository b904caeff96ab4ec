import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState } from 'react';
import { DialogProblem } from './dialog-problem.tsx';
import { InertButton } from './inert-button.tsx';

interface ConfirmDialogProps {
  /** Open while there is something to confirm. */
  open: boolean;
  title: string;
  text: string;
  /** The confirming button's label ("Delete"); Cancel is the other. */
  action: string;
  /** A change that cannot simply be taken back: the button is red. */
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Once it has closed (its closing transition done), with its element. */
  onClosed?: (dialog: HTMLElement) => void;
  /** Why the change it asked for failed: said in the dialog, which stays to be answered again. */
  problem?: string;
}

type Words = Pick<ConfirmDialogProps, 'title' | 'text' | 'action' | 'destructive'>;

/**
 * "Are you sure?" before a change a stray Enter or tap should not make: the focus starts on
 * Cancel, and returns to the button that asked when the dialog closes. While it closes it
 * keeps the words it asked with, whatever its owner (which has let the question go) says.
 */
export function ConfirmDialog({
  open,
  busy = false,
  onConfirm,
  onCancel,
  onClosed,
  problem,
  ...words
}: ConfirmDialogProps) {
  const id = useId();
  const [asked, setAsked] = useState<Words>(words);
  if (open && !sameWords(asked, words)) setAsked(words);
  const { title, text, action, destructive = false } = open ? words : asked;
  // While the change runs it cannot be cancelled, and the question stays: closed then, the
  // focus would go back to a button the change has disabled or taken away, and fall to the
  // page's start. Its buttons are inert (aria-disabled), never disabled, which would drop the
  // focus too. While it fades out nothing in it answers a click.
  const cancel = busy || !open ? undefined : onCancel;
  return (
    <Dialog
      open={open}
      onClose={cancel}
      slotProps={{ transition: { onExited: onClosed } }}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{text}</DialogContentText>
        <DialogProblem problem={open ? problem : undefined} />
      </DialogContent>
      <DialogActions>
        <InertButton onClick={cancel} unavailable={busy} autoFocus>
          Cancel
        </InertButton>
        <InertButton
          color={destructive ? 'error' : 'primary'}
          variant="contained"
          onClick={open ? onConfirm : undefined}
          unavailable={busy}
        >
          {action}
        </InertButton>
      </DialogActions>
    </Dialog>
  );
}

function sameWords(a: Words, b: Words): boolean {
  return a.title === b.title && a.text === b.text && a.action === b.action && a.destructive === b.destructive;
}
