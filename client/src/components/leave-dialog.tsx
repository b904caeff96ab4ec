// The question the leave prompt asks (unsaved-changes-prompt.tsx), loaded once a page has
// something to lose: the registration page's first load does not carry MUI's dialog.

import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

export interface LeaveDialogProps {
  open: boolean;
  title: string;
  message: string;
  onStay: () => void;
  onLeave: () => void;
}

export default function LeaveDialog({ open, title, message, onStay, onLeave }: LeaveDialogProps) {
  return (
    <Dialog open={open} onClose={onStay} aria-labelledby="unsaved-title">
      <DialogTitle id="unsaved-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onStay} autoFocus>
          Stay
        </Button>
        <Button color="error" onClick={onLeave}>
          Leave
        </Button>
      </DialogActions>
    </Dialog>
  );
}
