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
import { DialogProblem } from '../../components/dialog-problem.tsx';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { ERASE_CONFIRMATION } from '@tc/domain/admin-tools';
import { HISTORY_MAX_ENTRIES } from '@tc/domain/constants';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import type { StudentRecord } from '@tc/domain/student';
import { errorText } from '../../lib/errors.ts';
import { focusLost } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import type { CallAs } from '../../lib/use-api.ts';
import { ActivityList, type ActivityEntry } from '../../components/activity-list.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';

type ToolName = 'history' | 'status' | 'erase';

/** The tool a button opened, for which student; kept while its dialog closes (the title stays). */
interface OpenTool {
  tool: 'history' | 'deactivate' | 'erase';
  row: StudentRecord;
  open: boolean;
  /** Counts the openings: each starts its dialog afresh (an empty confirmation). */
  opening: number;
}

/** What a row's buttons need: the tool to start, and whether this student's status is changing. */
export interface StudentTools {
  /** `button`: the one pressed, where the focus goes back when the dialog closes. */
  start: (tool: ToolName, row: StudentRecord, button: HTMLElement) => void;
  busyIds: readonly string[];
  /** The open tool's dialog, rendered by the owner (the table or the editor), not by a cell. */
  dialog: ReactNode;
  /** Why the last reactivation failed, for an owner that is itself a dialog (the editor) to say. */
  reactivationProblem: string | null;
}

/**
 * The admin tools of a student: History, Deactivate / Reactivate, Erase personal data.
 * Their dialogs belong to the owner of the buttons (the table, the student's editor), never to
 * a table cell: the grid may mount a cell again at any reload, and a dialog in it would close.
 */
export function useStudentTools(options: {
  callAsAdmin: CallAs;
  /** A tool changed this student (their status, their erasure): the owner shows it. */
  onChanged: (objectId: string) => void;
  /** A dialog closed after its button had gone (a reload took the row away): where the focus goes. */
  onOpenerGone?: () => void;
}): StudentTools {
  const { callAsAdmin, onChanged, onOpenerGone } = options;
  const [current, setCurrent] = useState<OpenTool | null>(null);
  const [busyIds, setBusyIds] = useState<readonly string[]>([]);
  /** History: null while loading; 'failed' when it could not be loaded. */
  const [entries, setEntries] = useState<ActivityEntry[] | 'failed' | null>(null);
  // The answer to the last opening only.
  const latest = useRef(0);
  /** Closes the dialog of that opening (not one opened since); the focus goes back to its button. */
  const close = useCallback(
    (opening: number) => setCurrent((shown) => (shown?.opening === opening ? { ...shown, open: false } : shown)),
    [],
  );
  /** The button that opened the dialog shown. */
  const opener = useRef<HTMLElement | null>(null);
  /**
   * Once a dialog has closed (`dialog`, its element, still in the page): the focus went back to
   * its button, unless a reload took the button away (then the focus, still in the closing
   * dialog, goes to the owner's choice) or could not take it then. Never taken from where the
   * admin has put it meanwhile.
   */
  const closed = (dialog: HTMLElement) => {
    const button = opener.current;
    if (!button || !(focusLost() || dialog.contains(document.activeElement))) return;
    if (button.isConnected) button.focus();
    else onOpenerGone?.();
  };

  const loadHistory = useCallback(
    async (row: StudentRecord) => {
      const turn = ++latest.current;
      setEntries(null);
      const result = await callAsAdmin('getStudentHistory', { objectId: row.objectId });
      if (turn !== latest.current) return;
      if (result.ok && result.data) return setEntries(result.data);
      setEntries('failed');
      if (!result.sessionEnded) notify.error(errorText(result, AdminToolsMessage.historyNotLoaded));
    },
    [callAsAdmin],
  );

  /** Why the deactivation asked about failed, said in its question. */
  const [statusProblem, setStatusProblem] = useState<string | undefined>(undefined);
  /** Why the last reactivation failed (none asks first): the editor says it beside its button. */
  const [reactivationProblem, setReactivationProblem] = useState<string | null>(null);
  const setStatus = useCallback(
    /** `asked`: the opening of the question that asked first (a deactivation), closed once done. */
    async (row: StudentRecord, status: 'active' | 'deactivated', asked?: number) => {
      setStatusProblem(undefined);
      setReactivationProblem(null);
      setBusyIds((ids) => [...ids, row.objectId]);
      const result = await callAsAdmin('setStudentStatus', { objectId: row.objectId, status });
      setBusyIds((ids) => ids.filter((id) => id !== row.objectId));
      if (asked !== undefined && (result.ok || result.sessionEnded)) close(asked);
      if (result.ok) {
        notify.success(status === 'active' ? 'Student reactivated' : 'Student deactivated');
        onChanged(row.objectId);
      } else if (result.sessionEnded) return;
      // A deactivation's question stays open, saying why, to be answered again.
      else if (asked !== undefined) setStatusProblem(errorText(result, 'Update failed'));
      else {
        // A reactivation asks nothing: a toast, and in the editor (a dialog hides the toast
        // from screen readers) beside its button.
        notify.error(errorText(result, 'Update failed'));
        setReactivationProblem(errorText(result, 'Update failed'));
      }
    },
    [callAsAdmin, onChanged, close],
  );

  const start = useCallback(
    (tool: ToolName, row: StudentRecord, button: HTMLElement) => {
      opener.current = button;
      if (tool === 'history') void loadHistory(row);
      // Reactivating takes nothing away: done at once. Deactivating logs the student out
      // everywhere: asked first (a stray Enter in the table must not).
      if (tool === 'status' && row.status === 'deactivated') return void setStatus(row, 'active');
      setCurrent((shown) => ({
        tool: tool === 'status' ? 'deactivate' : tool,
        row,
        open: true,
        opening: (shown?.opening ?? 0) + 1,
      }));
    },
    [loadHistory, setStatus],
  );

  const shown = current;
  const closeShown = () => shown && close(shown.opening);
  const dialog = shown && (
    <>
      <Dialog
        open={shown.tool === 'history' && shown.open}
        onClose={closeShown}
        slotProps={{ transition: { onExited: closed } }}
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle>History of {shown.row.fullname}</DialogTitle>
        {/* Focusable, so that a keyboard scrolls a long History (it holds nothing else to focus). */}
        <DialogContent tabIndex={0} role="region" aria-label="Changes">
          {Array.isArray(entries) ? (
            <>
              {entries.length >= HISTORY_MAX_ENTRIES && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                  {AdminToolsMessage.historyCapped}
                </Typography>
              )}
              <ActivityList entries={entries} />
            </>
          ) : (
            <LoadStatus
              failed={entries === 'failed'}
              failedText={AdminToolsMessage.historyNotLoaded}
              loadingText="Loading ..."
              onRetry={() => void loadHistory(shown.row)}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={closeShown}>Close</Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={shown.tool === 'deactivate' && shown.open}
        title={`Deactivate ${shown.row.fullname}?`}
        text="They are logged out on every device, cannot log in and get no mail until an administrator reactivates them. Their record and marks stay as they are."
        action="Deactivate"
        destructive
        busy={busyIds.includes(shown.row.objectId)}
        onConfirm={() => void setStatus(shown.row, 'deactivated', shown.opening)}
        onCancel={() => {
          setStatusProblem(undefined);
          closeShown();
        }}
        problem={statusProblem}
        onClosed={closed}
      />
      {shown.tool === 'erase' && (
        <EraseDialog
          key={shown.opening}
          row={shown.row}
          open={shown.open}
          callAsAdmin={callAsAdmin}
          onClose={closeShown}
          onClosed={closed}
          onErased={() => {
            closeShown();
            onChanged(shown.row.objectId);
          }}
        />
      )}
    </>
  );
  return { start, busyIds, dialog, reactivationProblem };
}

function EraseDialog(props: {
  row: StudentRecord;
  open: boolean;
  callAsAdmin: CallAs;
  onClose: () => void;
  /** Once it has closed (its closing transition done), with its element. */
  onClosed: (dialog: HTMLElement) => void;
  onErased: () => void;
}) {
  const { row, open, callAsAdmin, onClose, onClosed, onErased } = props;
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  /** Why the erasure failed, said in the dialog (a toast behind it is hidden from screen readers). */
  const [problem, setProblem] = useState<string | null>(null);
  // Erased, but a fault stopped the last steps (the log's old values, sessions, mails):
  // the admin already confirmed, and only finishes it.
  const finishing = Boolean(row.erasureUnfinished);
  const erase = async () => {
    setBusy(true);
    setProblem(null);
    const confirm = finishing ? ERASE_CONFIRMATION : typed;
    const result = await callAsAdmin('eraseStudent', { objectId: row.objectId, confirm });
    setBusy(false);
    if (result.ok) {
      notify.success(finishing ? 'Erasure finished' : 'Personal data erased');
      onErased();
    } else if (!result.sessionEnded) setProblem(errorText(result, 'Erasure failed'));
  };
  const title = eraseTitle(row);
  return (
    // While the erasure runs it cannot be cancelled (it goes on at the server) and its buttons
    // keep the focus (components/inert-button.tsx).
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      slotProps={{ transition: { onExited: onClosed } }}
      fullWidth
      maxWidth="xs"
    >
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
        <DialogProblem problem={problem} />
      </DialogContent>
      <DialogActions>
        <InertButton onClick={onClose} unavailable={busy}>
          Cancel
        </InertButton>
        <InertButton
          color="error"
          variant="contained"
          unavailable={busy}
          disabled={!finishing && typed !== ERASE_CONFIRMATION}
          onClick={() => void erase()}
        >
          {finishing ? 'Finish erasure' : 'Erase'}
        </InertButton>
      </DialogActions>
    </Dialog>
  );
}

const eraseTitle = (row: StudentRecord) => (row.erasureUnfinished ? 'Finish erasure' : 'Erase personal data');

/** An icon with a tooltip in the table; a button with its label in the editor. */
function ToolButton(props: {
  label: string;
  name: string;
  icon: ReactNode;
  labelled?: boolean;
  onClick: (button: HTMLElement) => void;
  color?: 'error';
  disabled?: boolean;
}) {
  const { label, name, icon, labelled, onClick, color, disabled } = props;
  // Inert while its change runs (aria-disabled), never disabled: a disabled button drops the
  // keyboard's focus to the page's start, and a dialog closing then cannot give it back.
  const click = (event: MouseEvent<HTMLElement>) => {
    if (!disabled) onClick(event.currentTarget);
  };
  const inert = disabled ? { 'aria-disabled': true, sx: { opacity: 0.5 } } : {};
  if (labelled) {
    return (
      <Button startIcon={icon} onClick={click} color={color} {...inert}>
        {label}
      </Button>
    );
  }
  return (
    <Tooltip title={label}>
      <IconButton aria-label={name} onClick={click} size="small" {...inert}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}

/**
 * A student's tool buttons: labelled in the student's editor (the only way to them on a
 * phone), icons in the table's Tools column. They only ask; the tools' owner does the rest.
 */
export function StudentToolButtons({
  row,
  tools,
  labelled,
}: {
  row: StudentRecord;
  tools: Pick<StudentTools, 'start' | 'busyIds'>;
  labelled?: boolean;
}) {
  const deactivated = row.status === 'deactivated';
  const status = deactivated ? 'Reactivate' : 'Deactivate';
  const erasable = !row.erased || row.erasureUnfinished;
  return (
    <>
      <ToolButton
        label="History"
        name={`History of ${row.fullname}`}
        icon={<HistoryIcon />}
        labelled={labelled}
        onClick={(button) => tools.start('history', row, button)}
      />
      {!row.erased && (
        <ToolButton
          label={status}
          name={`${status} ${row.fullname}`}
          icon={deactivated ? <LockOpenIcon /> : <BlockIcon />}
          labelled={labelled}
          onClick={(button) => tools.start('status', row, button)}
          disabled={tools.busyIds.includes(row.objectId)}
        />
      )}
      {erasable && (
        <ToolButton
          label={eraseTitle(row)}
          name={
            row.erasureUnfinished ? `Finish erasure of enrollment ${row.id}` : `Erase personal data of ${row.fullname}`
          }
          icon={<DeleteForeverIcon />}
          labelled={labelled}
          color="error"
          onClick={(button) => tools.start('erase', row, button)}
        />
      )}
    </>
  );
}

/** The table's Tools column: each row's buttons, the dialogs with the table (useStudentTools). */
export function studentToolsColumn(tools: Pick<StudentTools, 'start' | 'busyIds'>): GridColDef<StudentRecord> {
  return {
    field: 'tools',
    headerName: 'Tools',
    width: 140,
    sortable: false,
    filterable: false,
    disableColumnMenu: true,
    renderCell: ({ row }) => <StudentToolButtons row={row} tools={tools} />,
  };
}
