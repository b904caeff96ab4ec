// The same MUI parts as the timetable's slot dialog: an import list, not copied logic.
/* jscpd:ignore-start */
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
/* jscpd:ignore-end */
import { GRADES, BOARDS_OR_ALL } from '@tc/domain/constants';
import { boardChoiceLabel } from '@tc/domain/timetable';
import { MAX_MARKS_MAX, TITLE_MAX_LENGTH, validateAssessment, type AssessmentField } from '@tc/domain/assessments';
import { gradeLabel } from '@tc/domain/registration';
import { SUBJECTS } from '@tc/domain/subjects';
import type { ResponseOf } from '@tc/domain/api/contract';
import { DateField } from '../../components/date-field.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { changedFields } from '../../lib/changed-fields.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { todayIn } from '@tc/domain/zoned-time';
import { useCentreZone } from '../../lib/centre-zone.ts';
import { useApi } from '../../lib/use-api.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { closeOnEscape } from '../../lib/form-dialog.ts';

export type Assessment = ResponseOf<'createAssessment'>;

interface Draft {
  grade: string;
  board: string;
  subject: string;
  title: string;
  date: string;
  maxMarks: string;
}

/** A new assessment's fields, dated `today`. */
const newDraft = (today: string): Draft => ({
  grade: '',
  board: '',
  subject: '',
  title: '',
  date: today,
  maxMarks: '',
});

/** An assessment's fields as the form holds them. */
function draftOf(assessment: Assessment): Draft {
  return { ...assessment, grade: String(assessment.grade), maxMarks: String(assessment.maxMarks) };
}

interface Props {
  /** The assessment to edit, or null to create one. */
  editing: Assessment | null;
  onClose: () => void;
  onSaved: (assessment: Assessment) => void;
}

/** Create or edit an assessment: the rules of domain/ on every field, the server's verdict under its field. */
export function AssessmentDialog({ editing, onClose, onSaved }: Props) {
  const { call: callAsAdmin } = useApi('admin');
  // A new assessment is dated today at the centre, as the assessments' dates are the centre's.
  const today = todayIn(useCentreZone());
  const [draft, setDraft] = useState<Draft>(() => (editing ? draftOf(editing) : newDraft(today)));
  // The centre's zone may come after the dialog opened (until then it is the browser's):
  // a date still as it was given moves to the centre's today.
  const [givenToday, setGivenToday] = useState(today);
  if (today !== givenToday) {
    setGivenToday(today);
    if (!editing && draft.date === givenToday) setDraft({ ...draft, date: today });
  }
  // Every problem at once, a blank line under a field without one (the form keeps its height).
  const { formRef, show, clear, errorProps } = useFieldErrors<AssessmentField>(' ');
  const [busy, setBusy] = useState(false);

  const set = (name: AssessmentField, value: string) => {
    setDraft((d) => ({ ...d, [name]: value }));
    clear(name);
  };

  /** A field as the form shows it: its value, and its error (or a blank line) under it. */
  const shown = (name: AssessmentField) => ({ name, value: draft[name], ...errorProps(name), fullWidth: true });

  const field = (name: AssessmentField) => ({
    ...shown(name),
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateAssessment(draft);
    if (!checked.ok) return show(checked.problems);
    // An edit sends only what this form changed (lib/changed-fields.ts).
    const opened = editing ? validateAssessment(draftOf(editing)) : null;
    const changes = opened?.ok ? changedFields(opened.value, checked.value) : checked.value;
    if (editing && Object.keys(changes).length === 0) return onClose();
    setBusy(true);
    const result = editing
      ? await callAsAdmin('updateAssessment', { objectId: editing.objectId, ...changes })
      : await callAsAdmin('createAssessment', checked.value);
    setBusy(false);
    if (result.ok && result.data) {
      notify.success(editing ? 'Assessment saved' : 'Assessment created');
      onSaved(result.data);
      return;
    }
    if (result.sessionEnded) return;
    const named = errorField(result);
    const message = errorText(result, 'The assessment could not be saved. Please try again.');
    if (named && named in draft) show({ [named]: message });
    else notify.error(message);
  };

  return (
    <Dialog
      open
      onClose={closeOnEscape(onClose, busy)}
      aria-labelledby="assessment-dialog-title"
      fullWidth
      maxWidth="sm"
    >
      <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="assessment-dialog-title">{editing ? 'Edit assessment' : 'New assessment'}</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField select label="Grade" {...field('grade')}>
                {GRADES.map((grade) => (
                  <MenuItem key={grade} value={String(grade)}>
                    {gradeLabel(grade)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField select label="Board" {...field('board')}>
                {BOARDS_OR_ALL.map((board) => (
                  <MenuItem key={board} value={board}>
                    {boardChoiceLabel(board)}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <TextField select label="Subject" {...field('subject')}>
              {SUBJECTS.map((subject) => (
                <MenuItem key={subject} value={subject}>
                  {subject}
                </MenuItem>
              ))}
            </TextField>
            <TextField label="Title" {...field('title')} slotProps={{ htmlInput: { maxLength: TITLE_MAX_LENGTH } }} />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <DateField label="Date" {...shown('date')} onChange={(date) => set('date', date)} />
              <TextField
                label="Maximum marks"
                type="number"
                {...field('maxMarks')}
                slotProps={{ htmlInput: { min: 1, max: MAX_MARKS_MAX, step: 1, inputMode: 'numeric' } }}
              />
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <InertButton onClick={onClose} unavailable={busy}>
            Cancel
          </InertButton>
          <InertButton type="submit" variant="contained" unavailable={busy}>
            {busy ? 'Saving...' : 'Save'}
          </InertButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
