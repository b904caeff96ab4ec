import BlockIcon from '@mui/icons-material/Block';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import HistoryIcon from '@mui/icons-material/History';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useRef, useState, type ReactNode } from 'react';
import { ERASE_CONFIRMATION } from '@tc/domain/admin-tools';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import type { StudentRecord } from '@tc/domain/student';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useApi, type CallAs } from '../../lib/use-api.ts';
import { ActivityList, type ActivityEntry } from '../../components/activity-list.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadStatus } from '../../components/load-status.tsx';

interface ToolsProps {
  row: StudentRecord;
  onChanged: () => void;
  /** A labelled button (the student's editor) rather than an icon (the table's Tools column). */
  labelled?: boolean;
}

type ToolProps = ToolsProps & { callAsAdmin: CallAs };

/** An icon with a tooltip in the table; a button with its label in the editor. */
function ToolButton(props: {
  label: string;
  name: string;
  icon: ReactNode;
  labelled?: boolean;
  onClick: () => void;
  color?: 'error';
  disabled?: boolean;
}) {
  const { label, name, icon, labelled, onClick, color, disabled } = props;
  if (labelled) {
    return (
      <Button startIcon={icon} onClick={onClick} color={color} disabled={disabled}>
        {label}
      </Button>
    );
  }
  return (
    <Tooltip title={label}>
      {/* A disabled button fires no events: the span keeps the tooltip working. */}
      <span>
        <IconButton aria-label={name} onClick={onClick} size="small" disabled={disabled}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

function HistoryButton({ row, labelled, callAsAdmin }: ToolProps) {
  /** null while loading; 'failed' when it could not be loaded. */
  const [entries, setEntries] = useState<ActivityEntry[] | 'failed' | null>(null);
  const [open, setOpen] = useState(false);
  // The answer to the last opening only.
  const latest = useRef(0);
  const show = async () => {
    const turn = ++latest.current;
    setOpen(true);
    setEntries(null);
    const result = await callAsAdmin('getStudentHistory', { objectId: row.objectId });
    if (turn !== latest.current) return;
    if (result.ok && result.data) return setEntries(result.data);
    setEntries('failed');
    if (!result.sessionEnded) notify.error(errorText(result, AdminToolsMessage.historyNotLoaded));
  };
  return (
    <>
      <ToolButton
        label="History"
        name={`History of ${row.fullname}`}
        icon={<HistoryIcon />}
        labelled={labelled}
        onClick={() => void show()}
      />
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm">
        <DialogTitle>History of {row.fullname}</DialogTitle>
        <DialogContent>
          {Array.isArray(entries) ? (
            <ActivityList entries={entries} />
          ) : (
            <LoadStatus
              failed={entries === 'failed'}
              failedText={AdminToolsMessage.historyNotLoaded}
              loadingText="Loading ..."
              onRetry={() => void show()}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function StatusButton({ row, onChanged, labelled, callAsAdmin }: ToolProps) {
  const [busy, setBusy] = useState(false);
  // Deactivating logs the student out everywhere: asked first (a stray Enter in the table must not).
  const [asking, setAsking] = useState(false);
  const deactivated = row.status === 'deactivated';
  const toggle = async () => {
    const status = deactivated ? 'active' : 'deactivated';
    setBusy(true);
    const result = await callAsAdmin('setStudentStatus', { objectId: row.objectId, status });
    setBusy(false);
    setAsking(false);
    if (result.ok) {
      notify.success(deactivated ? 'Student reactivated' : 'Student deactivated');
      onChanged();
    } else if (!result.sessionEnded) notify.error(errorText(result, 'Update failed'));
  };
  if (row.erased) return null;
  const label = deactivated ? 'Reactivate' : 'Deactivate';
  return (
    <>
      <ToolButton
        label={label}
        name={`${label} ${row.fullname}`}
        icon={deactivated ? <LockOpenIcon /> : <BlockIcon />}
        labelled={labelled}
        onClick={() => (deactivated ? void toggle() : setAsking(true))}
        disabled={busy}
      />
      <ConfirmDialog
        open={asking}
        title={`Deactivate ${row.fullname}?`}
        text="They are logged out on every device, cannot log in and get no mail until an administrator reactivates them. Their record and marks stay as they are."
        action="Deactivate"
        destructive
        busy={busy}
        onConfirm={() => void toggle()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

function EraseButton({ row, onChanged, labelled, callAsAdmin }: ToolProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  if (row.erased && !row.erasureUnfinished) return null;
  // Erased, but a fault stopped the last steps (the log's old values, sessions, mails):
  // the admin already confirmed, and only finishes it.
  const finishing = Boolean(row.erasureUnfinished);
  const erase = async () => {
    setBusy(true);
    const confirm = finishing ? ERASE_CONFIRMATION : typed;
    const result = await callAsAdmin('eraseStudent', { objectId: row.objectId, confirm });
    setBusy(false);
    if (result.ok) {
      notify.success(finishing ? 'Erasure finished' : 'Personal data erased');
      setOpen(false);
      onChanged();
    } else if (!result.sessionEnded) notify.error(errorText(result, 'Erasure failed'));
  };
  const title = finishing ? 'Finish erasure' : 'Erase personal data';
  return (
    <>
      <ToolButton
        label={title}
        name={finishing ? `Finish erasure of enrollment ${row.id}` : `Erase personal data of ${row.fullname}`}
        icon={<DeleteForeverIcon />}
        labelled={labelled}
        color="error"
        onClick={() => setOpen(true)}
      />
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {finishing ? (
            <Typography>
              The personal data of enrollment {row.id} was erased, but a fault stopped the last steps: removing the old
              values from the activity log, ending sessions and dropping mails. Run them now.
            </Typography>
          ) : (
            <>
              <Typography sx={{ mb: 2 }}>
                The name, e-mail, mobile, date of birth and gender of {row.fullname} (enrollment {row.id}) will be
                replaced for good; their sessions end and no mail is sent to them again. The enrollment number and marks
                remain.
              </Typography>
              <TextField
                label={`Type ${ERASE_CONFIRMATION} to confirm`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                fullWidth
              />
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            color="error"
            variant="contained"
            disabled={busy || (!finishing && typed !== ERASE_CONFIRMATION)}
            onClick={() => void erase()}
          >
            {finishing ? 'Finish erasure' : 'Erase'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * The admin tools of a student: History, Deactivate / Reactivate, Erase personal
 * data. Labelled in the student's editor (the only way to them on a phone), icons
 * in the table's Tools column.
 */
export function StudentTools(props: ToolsProps) {
  const { call: callAsAdmin } = useApi('admin');
  return (
    <>
      <HistoryButton {...props} callAsAdmin={callAsAdmin} />
      <StatusButton {...props} callAsAdmin={callAsAdmin} />
      <EraseButton {...props} callAsAdmin={callAsAdmin} />
    </>
  );
}

/** The admin tools of a row: History, Deactivate / Reactivate, Erase personal data. */
export function studentToolsColumn(onChanged: (objectId: string) => void): GridColDef<StudentRecord> {
  return {
    field: 'tools',
    headerName: 'Tools',
    width: 140,
    sortable: false,
    filterable: false,
    disableColumnMenu: true,
    renderCell: ({ row }) => <StudentTools row={row} onChanged={() => onChanged(row.objectId)} />,
  };
}
