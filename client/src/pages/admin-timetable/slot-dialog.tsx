import { BOARDS_OR_ALL } from '@tc/domain/constants';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { ResponseOf } from '@tc/domain/api/contract';
import { UiMessage } from '@tc/domain/messages';
import { gradeLabel } from '@tc/domain/registration';
import {
  boardChoiceLabel,
  SUBJECTS,
  validateSlot,
  WEEKDAYS,
  type SlotField,
  type SlotFields,
} from '@tc/domain/timetable';
import { changedFields } from '../../lib/changed-fields.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { useApi } from '../../lib/use-api.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { closeOnEscape } from '../../lib/form-dialog.ts';
import { InertButton } from '../../components/inert-button.tsx';

export type SlotRecord = ResponseOf<'createTimetableSlot'>;

type Draft = { [K in keyof SlotFields]: string };

function draftOf(slot: SlotRecord | undefined, grade: number, board: string): Draft {
  return {
    grade: String(slot?.grade ?? grade),
    board: slot?.board ?? board,
    subject: slot?.subject ?? SUBJECTS[0],
    weekday: String(slot?.weekday ?? 1),
    start: slot?.start ?? '16:00',
    duration: String(slot?.duration ?? 60),
    teacher: slot?.teacher ?? '',
    link: slot?.link ?? '',
  };
}

interface Props {
  /** The slot being edited; a new slot when absent. */
  slot?: SlotRecord;
  grade: number;
  board: string;
  onClose: () => void;
  onSaved: (slot: SlotRecord, created: boolean) => void;
}

/** Add or edit a slot: the domain rules on each submit, then the server's (the clash rule). */
export function SlotDialog({ slot, grade, board, onClose, onSaved }: Props) {
  const { call: callAsAdmin } = useApi('admin');
  const [draft, setDraft] = useState<Draft>(() => draftOf(slot, grade, board));
  const { formRef, show, clear, errorProps } = useFieldErrors<SlotField>();
  const [saving, setSaving] = useState(false);

  const set = (field: SlotField) => (event: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [field]: event.target.value }));
    clear(field);
    // The end's rule (by midnight) sits under the duration but reads the start too.
    if (field === 'start') clear('duration');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateSlot(draft);
    if (!checked.ok) return show(checked.problems);
    // An edit sends only what this form changed (lib/changed-fields.ts).
    const opened = slot ? validateSlot(draftOf(slot, grade, board)) : null;
    const changes = opened?.ok ? changedFields(opened.value, checked.value) : checked.value;
    if (slot && Object.keys(changes).length === 0) return onClose();
    setSaving(true);
    const result = slot
      ? await callAsAdmin('updateTimetableSlot', { objectId: slot.objectId, ...changes })
      : await callAsAdmin('createTimetableSlot', checked.value);
    setSaving(false);
    if (result.ok && result.data) return onSaved(result.data, !slot);
    if (result.sessionEnded) return;
    show({ [errorField(result) ?? 'subject']: errorText(result, UiMessage.anErrorOccurred) });
  };

  const fieldProps = (field: SlotField) => ({
    name: field,
    value: draft[field],
    onChange: set(field),
    ...errorProps(field),
    fullWidth: true,
  });

  const title = slot ? 'Edit class' : 'Add class';
  return (
    <Dialog open onClose={closeOnEscape(onClose, saving)} aria-labelledby="slot-dialog-title" fullWidth maxWidth="sm">
      <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="slot-dialog-title">
          {title}: {gradeLabel(Number(draft.grade))} grade
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField select label="Board" {...fieldProps('board')}>
              {BOARDS_OR_ALL.map((b) => (
                <MenuItem key={b} value={b}>
                  {boardChoiceLabel(b)}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label="Subject" {...fieldProps('subject')}>
              {SUBJECTS.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label="Day" {...fieldProps('weekday')}>
              {WEEKDAYS.map((day, i) => (
                <MenuItem key={day} value={String(i + 1)}>
                  {day}
                </MenuItem>
              ))}
            </TextField>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField label="Start time" type="time" {...fieldProps('start')} />
              <TextField
                label="Duration (minutes)"
                type="number"
                {...fieldProps('duration')}
                slotProps={{ htmlInput: { min: 15, max: 180, step: 5 } }}
              />
            </Stack>
            <TextField label="Teacher" {...fieldProps('teacher')} slotProps={{ htmlInput: { maxLength: 60 } }} />
            <TextField label="Online class link (optional)" type="url" placeholder="https://" {...fieldProps('link')} />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <InertButton onClick={onClose} unavailable={saving}>
            Cancel
          </InertButton>
          <InertButton type="submit" variant="contained" unavailable={saving}>
            {saving ? 'Saving...' : 'Save'}
          </InertButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
