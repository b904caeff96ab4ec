import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState, type FormEvent } from 'react';
import type { ResponseOf } from '@tc/domain/api/contract';
import { isoToDisplayDate } from '@tc/domain/dates';
import { UiMessage } from '@tc/domain/messages';
import { TimetableMessage } from '@tc/domain/timetable-messages';
import { validateHoliday, type HolidayField } from '@tc/domain/timetable';
import { DateField } from '../../components/date-field.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { errorField, errorText } from '../../lib/errors.ts';
import { focusAfterDialog } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import { todayIn } from '@tc/domain/zoned-time';
import { useCentreZone } from '../../lib/centre-zone.ts';
import { useApi } from '../../lib/use-api.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

type HolidayRecord = ResponseOf<'listHolidays'>[number];

interface Props {
  /** null while loading; 'failed' when it could not be loaded. */
  holidays: HolidayRecord[] | 'failed' | null;
  onChanged: () => void;
  /** Loads the list again after a failed load. */
  onRetry: () => void;
}

type HolidayValues = Pick<HolidayRecord, 'title' | 'from' | 'to'>;

const span = (h: HolidayValues) =>
  h.from === h.to ? isoToDisplayDate(h.from) : `${isoToDisplayDate(h.from)} to ${isoToDisplayDate(h.to)}`;

/** The centre's holidays (no class takes place on them): the list, add and delete. */
export function HolidaysCard({ holidays, onChanged, onRetry }: Props) {
  const { call: callAsAdmin } = useApi('admin');
  const zone = useCentreZone();
  const [removing, setRemoving] = useState<string | null>(null);
  /** The holiday whose delete waits for the admin's yes. */
  const [asked, setAsked] = useState<HolidayRecord | null>(null);
  const [draft, setDraft] = useState({ title: '', from: '', to: '' });
  /** A holiday that is over, waiting for the admin's yes before it is added. */
  const [past, setPast] = useState<HolidayValues | null>(null);
  const { formRef, show, clear, errorProps } = useFieldErrors<HolidayField>();
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const add = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateHoliday(draft);
    if (!checked.ok) return show(checked.problems);
    // Its last day gone by (at the centre, whose days the holidays are): most often a
    // mistyped year, so asked first.
    if (checked.value.to < todayIn(zone)) return setPast(checked.value);
    void create(checked.value);
  };

  const create = async (holiday: HolidayValues) => {
    setBusy(true);
    const result = await callAsAdmin('createHoliday', holiday);
    setBusy(false);
    setPast(null);
    if (result.sessionEnded) return;
    if (result.ok) {
      notify.success(TimetableMessage.holidayCreated);
      setDraft({ title: '', from: '', to: '' });
      return onChanged();
    }
    show({ [errorField(result) ?? 'title']: errorText(result, UiMessage.anErrorOccurred) });
  };

  const remove = async (holiday: HolidayRecord) => {
    setRemoving(holiday.objectId);
    const result = await callAsAdmin('deleteHoliday', { objectId: holiday.objectId });
    setRemoving(null);
    setAsked(null);
    if (result.sessionEnded) return;
    if (result.ok) {
      notify.success(TimetableMessage.holidayDeleted);
      focusAfterDialog(() => heading.current);
    } else notify.error(errorText(result, UiMessage.anErrorOccurred));
    onChanged();
  };

  const set = (field: HolidayField, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    clear(field);
    // The last day's rules (not before, not too long) read the first day too.
    if (field === 'from') clear('to');
  };

  /** A field as the form shows it: its value, and its error under it. */
  const shown = (field: HolidayField) => ({
    name: field,
    value: draft[field],
    ...errorProps(field),
  });

  return (
    <Card component="section" aria-labelledby="holidays-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="holidays-heading" ref={heading} tabIndex={-1} variant="h2" sx={{ mb: 2, outline: 'none' }}>
        Holidays
      </Typography>
      {holidays === null || holidays === 'failed' ? (
        <LoadStatus failed={holidays === 'failed'} failedText={UiMessage.errorLoadingData} onRetry={onRetry} />
      ) : holidays.length === 0 ? (
        <Typography color="text.secondary">No holidays yet.</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {holidays.map((h) => (
            <Box
              component="li"
              key={h.objectId}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 1, borderTop: 1, borderColor: 'divider' }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>{h.title}</Typography>
                <Typography color="text.secondary">{span(h)}</Typography>
              </Box>
              <IconButton
                aria-label={`Delete holiday ${h.title}`}
                onClick={() => setAsked(h)}
                disabled={removing === h.objectId}
              >
                <DeleteIcon />
              </IconButton>
            </Box>
          ))}
        </Box>
      )}
      <Box component="form" ref={formRef} onSubmit={add} noValidate sx={{ mt: 2 }}>
        <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1.5 }}>
          Add a holiday
        </Typography>
        <Stack spacing={2}>
          <TextField
            label="Title"
            fullWidth
            {...shown('title')}
            onChange={(e) => set('title', e.target.value)}
            slotProps={{ htmlInput: { maxLength: 80 } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DateField label="First day" fullWidth {...shown('from')} onChange={(value) => set('from', value)} />
            <DateField label="Last day (optional)" fullWidth {...shown('to')} onChange={(value) => set('to', value)} />
          </Stack>
          <InertButton type="submit" variant="contained" unavailable={busy} sx={{ alignSelf: { sm: 'flex-start' } }}>
            {busy ? 'Adding...' : 'Add holiday'}
          </InertButton>
        </Stack>
      </Box>
      <ConfirmDialog
        open={asked !== null}
        title="Delete this holiday?"
        text={asked ? `${asked.title}, ${span(asked)}: classes take place on these days again.` : ''}
        action="Delete"
        destructive
        busy={removing !== null}
        onConfirm={() => asked && void remove(asked)}
        onCancel={() => setAsked(null)}
      />
      <ConfirmDialog
        open={past !== null}
        title={TimetableMessage.holidayPastTitle}
        text={past ? TimetableMessage.holidayPast(past.title, span(past)) : ''}
        action="Add holiday"
        busy={busy}
        onConfirm={() => past && void create(past)}
        onCancel={() => setPast(null)}
      />
    </Card>
  );
}
