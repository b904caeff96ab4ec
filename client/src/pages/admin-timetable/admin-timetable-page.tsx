import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import type { ResponseOf } from '@tc/domain/api/contract';
import { BOARDS, GRADES, type Board, type Grade, ALL_BOARDS } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { TimetableMessage } from '@tc/domain/timetable-messages';
import { gradeLabel } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import { describeSlot, WEEKDAYS } from '@tc/domain/timetable';
import { timeZoneLabel } from '@tc/domain/zoned-time';
import { AdminPage } from '../../components/admin-page.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { useKnownCentreZone } from '../../lib/centre-zone.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import { HolidaysCard } from './holidays-card.tsx';
import { SlotDialog, type SlotRecord } from './slot-dialog.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { focusAfterDialog, focusIfReloadTakesIt } from '../../lib/focus-field.ts';

type Holidays = ResponseOf<'listHolidays'>;

/** The admin's timetable screen: a batch's week (a grid, a list of days on phones) and the holidays. */
export default function AdminTimetablePage() {
  const { token, call: callAsAdmin } = useApi('admin');
  // Named once known: the slots' times are the centre's whatever the browser's zone is.
  const zone = useKnownCentreZone();
  const [grade, setGrade] = useState(1);
  const [board, setBoard] = useState<string>(BOARDS[0]);
  /** null while the batch's classes load; 'failed' when they could not be loaded. */
  const [slots, setSlots] = useState<SlotRecord[] | 'failed' | null>(null);
  /** null until loaded; 'failed' when the load failed. */
  const [holidays, setHolidays] = useState<Holidays | 'failed' | null>(null);
  const [editing, setEditing] = useState<{ slot?: SlotRecord } | null>(null);
  const [deleting, setDeleting] = useState<SlotRecord | null>(null);
  const weekHeading = useRef<HTMLHeadingElement>(null);
  const [busy, setBusy] = useState(false);

  // Bumped after each change, to read the lists again.
  const [slotsVersion, setSlotsVersion] = useState(0);
  const [holidaysVersion, setHolidaysVersion] = useState(0);
  const loadSlots = () => setSlotsVersion((v) => v + 1);
  const loadHolidays = () => setHolidaysVersion((v) => v + 1);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsAdmin('listTimetableSlots', { grade: grade as Grade, board: board as Board }).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) {
        // An edit that moved its class to another day took its Edit button (which had the focus
        // back from the dialog) away: the focus follows the class (else goes to the heading).
        focusIfReloadTakesIt(() => weekHeading.current?.focus());
        setSlots(result.data);
      } else if (!result.sessionEnded) {
        notify.error(UiMessage.errorLoadingData);
        setSlots((current) => (Array.isArray(current) ? current : 'failed'));
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsAdmin, grade, board, slotsVersion]);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void callAsAdmin('listHolidays', {}).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) setHolidays(result.data);
      else if (!result.sessionEnded) setHolidays((current) => (Array.isArray(current) ? current : 'failed'));
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsAdmin, holidaysVersion]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    const result = await callAsAdmin('deleteTimetableSlot', { objectId: deleting.objectId });
    setBusy(false);
    setDeleting(null);
    if (result.sessionEnded) return;
    if (result.ok) {
      notify.success(TimetableMessage.slotDeleted);
      focusAfterDialog(() => weekHeading.current);
    } else notify.error(errorText(result, UiMessage.anErrorOccurred));
    loadSlots();
  };

  return (
    <AdminPage title="Timetable" heading="Timetable">
      <Card component="section" aria-labelledby="week-heading" sx={{ p: { xs: 2, sm: 3 }, mb: 3, minWidth: 0 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 2 }}
        >
          <Typography id="week-heading" ref={weekHeading} tabIndex={-1} variant="h2" sx={{ outline: 'none' }}>
            Weekly timetable
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
            <TextField
              select
              label="Grade"
              value={String(grade)}
              onChange={(e) => {
                // The batch's own classes only: not the last batch's while this one loads.
                setSlots(null);
                setGrade(Number(e.target.value));
              }}
              // One row with Add class where it fits (fields are full width by default); on
              // the narrowest phones Add class wraps below rather than squeeze the fields.
              sx={{ width: { xs: 'auto', sm: 120 }, flex: { xs: '1 1 100px', sm: 'none' } }}
            >
              {GRADES.map((g) => (
                <MenuItem key={g} value={String(g)}>
                  {gradeLabel(g)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Board"
              value={board}
              onChange={(e) => {
                setSlots(null);
                setBoard(e.target.value);
              }}
              sx={{ width: { xs: 'auto', sm: 130 }, flex: { xs: '1 1 100px', sm: 'none' } }}
            >
              {BOARDS.map((b) => (
                <MenuItem key={b} value={b}>
                  {b}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})}>
              Add class
            </Button>
          </Box>
        </Stack>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Grade {gradeLabel(grade)}, {board}: its own classes and those for all boards. Times are the centre&apos;s
          {zone ? ` (${timeZoneLabel(zone)})` : ''}.
        </Typography>
        {!Array.isArray(slots) ? (
          <LoadStatus
            failed={slots === 'failed'}
            failedText={UiMessage.errorLoadingData}
            onRetry={() => {
              setSlots(null);
              loadSlots();
            }}
          />
        ) : (
          <WeekGrid slots={slots} onEdit={(slot) => setEditing({ slot })} onDelete={(slot) => setDeleting(slot)} />
        )}
      </Card>
      <HolidaysCard
        holidays={holidays}
        onChanged={() => loadHolidays()}
        onRetry={() => {
          setHolidays(null);
          loadHolidays();
        }}
      />
      {editing && (
        <SlotDialog
          slot={editing.slot}
          grade={grade}
          board={board}
          onClose={() => setEditing(null)}
          onSaved={(_saved, created) => {
            setEditing(null);
            notify.success(created ? TimetableMessage.slotCreated : TimetableMessage.slotUpdated);
            loadSlots();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this class?"
        text={deleting ? describeSlot(deleting) : ''}
        action="Delete"
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

interface WeekGridProps {
  slots: SlotRecord[];
  onEdit: (slot: SlotRecord) => void;
  onDelete: (slot: SlotRecord) => void;
}

/** Seven columns from 900 px; below, one day under the other. */
function WeekGrid({ slots, onEdit, onDelete }: WeekGridProps) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: 'repeat(7, minmax(0, 1fr))' },
        gap: 1.5,
      }}
    >
      {WEEKDAYS.map((day, i) => {
        const ofDay = slots.filter((s) => s.weekday === i + 1).sort((a, b) => a.start.localeCompare(b.start));
        return (
          <Box
            key={day}
            component="section"
            aria-label={day}
            sx={{ bgcolor: 'background.default', borderRadius: 2, p: 1.25, minWidth: 0 }}
          >
            <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 700, mb: 1 }}>
              {day}
            </Typography>
            {ofDay.length === 0 && (
              <Typography color="text.secondary" sx={{ fontSize: '0.9rem' }}>
                No class
              </Typography>
            )}
            <Stack spacing={1}>
              {ofDay.map((slot) => (
                <Card key={slot.objectId} variant="outlined" sx={{ p: 1.25, minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>{slot.subject}</Typography>
                  <Typography sx={{ fontSize: '0.9rem' }}>
                    {slot.start}-{slot.end}
                  </Typography>
                  <Typography
                    color="text.secondary"
                    sx={{ fontSize: '0.9rem', overflowWrap: 'anywhere', hyphens: 'auto' }}
                  >
                    {slot.teacher}
                    {slot.board === ALL_BOARDS ? ' · all boards' : ''}
                  </Typography>
                  <Stack direction="row" spacing={0.5} sx={{ mt: 0.5 }}>
                    <IconButton
                      size="small"
                      aria-label={`Edit ${slot.subject} on ${day} at ${slot.start}`}
                      data-focus-key={`edit-${slot.objectId}`}
                      onClick={() => onEdit(slot)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={`Delete ${slot.subject} on ${day} at ${slot.start}`}
                      onClick={() => onDelete(slot)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Stack>
                </Card>
              ))}
            </Stack>
          </Box>
        );
      })}
    </Box>
  );
}
