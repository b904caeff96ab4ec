import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

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
}

/**
 * "Are you sure?" before a change a stray Enter or tap should not make: the focus starts on
 * Cancel, and returns to the button that asked when the dialog closes.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  action,
  destructive = false,
  busy = false,
  onConfirm,
  onCancel,
  onClosed,
}: ConfirmDialogProps) {
  const id = useId();
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      slotProps={{ transition: { onExited: onClosed } }}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <Button color={destructive ? 'error' : 'primary'} variant="contained" onClick={onConfirm} disabled={busy}>
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
