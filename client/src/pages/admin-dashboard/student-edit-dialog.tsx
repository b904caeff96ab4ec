import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState, type FormEvent } from 'react';
import { BOARDS, DISPLAY_DATE_FORMAT, GENDERS, GRADES } from '@tc/domain/constants';
import { displayToIsoDate, isoToDisplayDate, isValidIsoDate } from '@tc/domain/dates';
import { UiMessage } from '@tc/domain/messages';
import { gradeLabel } from '@tc/domain/registration';
import { EDITABLE_STUDENT_FIELDS, type EditableStudentField, type StudentRecord } from '@tc/domain/student';
import { validateStudentUpdate } from '@tc/domain/student-update';
import { FormMessage } from '../../components/form-message.tsx';
import { DialogProblem } from '../../components/dialog-problem.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { UnsavedChangesPrompt } from '../../components/unsaved-changes-prompt.tsx';
import { todayIn } from '@tc/domain/zoned-time';
import { useCentreZone } from '../../lib/centre-zone.ts';
import { errorField, errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import type { CallAs } from '../../lib/use-api.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';
import { StudentToolButtons, useStudentTools } from './student-tools.tsx';
import { closeOnEscape } from '../../lib/form-dialog.ts';

type Values = Record<EditableStudentField, string>;

/** The fields as the dialog shows them; an erased student's record has no gender, mobile or date of birth. */
const valuesOf = (student: StudentRecord): Values => {
  const stored: Partial<StudentRecord> = student;
  const dob = stored.dob ?? '';
  return {
    gender: stored.gender ?? '',
    mobile: stored.mobile ?? '',
    email: stored.email ?? '',
    dob: isValidIsoDate(dob) ? isoToDisplayDate(dob) : dob,
    board: stored.board ?? '',
    grade: stored.grade === undefined ? '' : String(stored.grade),
  };
};

interface StudentEditDialogProps {
  student: StudentRecord;
  callAsAdmin: CallAs;
  onSaved: (student: StudentRecord) => void;
  /** A tool changed the student (status, erasure): the table loads again. */
  onChanged: () => void;
  onClose: () => void;
}

/**
 * An admin's edit of one student: the editable fields, labelled,
 * checked by the same rules as the server's (domain/student-update.ts), errors under
 * their field; then the student's History, Deactivate / Reactivate and Erase.
 * Escape or Cancel closes it; focus then returns to the row's Edit button.
 */
export function StudentEditDialog(props: StudentEditDialogProps) {
  const { student, callAsAdmin, onSaved, onChanged, onClose } = props;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const tools = useStudentTools({ callAsAdmin, onChanged });
  // The date of birth's age rules count to today at the centre, as the server's do.
  const zone = useCentreZone();
  const [values, setValues] = useState<Values>(() => valuesOf(student));
  const { formRef, problem, fail, changed, run, busy, fieldProps } = useFormProblem(EDITABLE_STUDENT_FIELDS);
  const before = valuesOf(student);
  // Nothing about an erased student can change (the server refuses it too): shown, not offered.
  const erased = Boolean(student.erased);
  const unsaved = EDITABLE_STUDENT_FIELDS.some((field) => values[field] !== before[field]);

  const set = (field: EditableStudentField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    changed(field);
  };

  const save = async () => {
    const changes: Record<string, unknown> = {};
    for (const field of EDITABLE_STUDENT_FIELDS) {
      if (values[field] === before[field]) continue;
      const value = values[field].trim();
      changes[field] = field === 'dob' ? (displayToIsoDate(value) ?? value) : field === 'grade' ? Number(value) : value;
    }
    if (Object.keys(changes).length === 0) return onClose();
    const checked = validateStudentUpdate(changes, todayIn(zone));
    if (!checked.ok) return fail(checked.message, checked.field);
    // The fields as shown when the dialog opened: another admin's change meanwhile is refused, not overwritten.
    const shown = Object.fromEntries(
      Object.keys(checked.value).map((field) => [field, student[field as EditableStudentField]]),
    );
    const result = await callAsAdmin('updateStudent', { objectId: student.objectId, ...checked.value, before: shown });
    if (result.sessionEnded) return;
    if (!result.ok) return fail(errorText(result, UiMessage.updateFailed), errorField(result));
    notify.success(UiMessage.studentUpdated);
    onSaved({ ...student, ...checked.value, ...(result.data ?? {}) });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(save);
  };

  const select = (field: 'gender' | 'board' | 'grade', label: string, options: Array<[string, string]>) => (
    <TextField
      select
      label={label}
      name={field}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      {...fieldProps(field)}
      disabled={erased}
    >
      {/* None stored (an erased student's gender): blank, not the first choice shown as if it were. */}
      {values[field] === '' && <option value="" />}
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </TextField>
  );

  return (
    <Dialog
      open
      onClose={closeOnEscape(onClose, busy)}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby="edit-title"
    >
      {/* A change typed is not lost to a move away unasked (the phone's back gesture, a link,
          logging out, a reload); Cancel and Escape are the admin's own choice to drop it. */}
      <UnsavedChangesPrompt
        when={unsaved}
        // The table under it moving off a page past its last (a live reload) is no move away.
        viewChangesKeepIt
        message={`Your changes to ${student.fullname} are not saved. If you leave, they are lost.`}
      />
      {/* A column whose content scrolls between the title and the buttons: Save stays in view on a phone. */}
      <form
        ref={formRef}
        noValidate
        onSubmit={submit}
        style={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
      >
        <DialogTitle id="edit-title" sx={{ overflowWrap: 'anywhere' }}>
          Edit {student.fullname} (ID {student.id})
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {erased && (
              <Alert severity="info">
                The personal data of this student has been erased: the record can no longer be changed.
              </Alert>
            )}
            {select(
              'gender',
              'Gender',
              GENDERS.map((g) => [g, g]),
            )}
            <TextField
              label="Mobile"
              name="mobile"
              type="tel"
              value={values.mobile}
              onChange={(e) => set('mobile', e.target.value)}
              {...fieldProps('mobile')}
              disabled={erased}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              value={values.email}
              onChange={(e) => set('email', e.target.value)}
              {...fieldProps('email')}
              disabled={erased}
            />
            <TextField
              label="Date of Birth"
              name="dob"
              placeholder={DISPLAY_DATE_FORMAT}
              value={values.dob}
              onChange={(e) => set('dob', e.target.value)}
              {...fieldProps('dob')}
              disabled={erased}
              // The format is a typing hint: none on a record that cannot change (its grey failed contrast).
              helperText={fieldProps('dob').helperText ?? (erased ? undefined : DISPLAY_DATE_FORMAT)}
            />
            {select(
              'board',
              'Board',
              BOARDS.map((b) => [b, b]),
            )}
            {select(
              'grade',
              'Grade',
              GRADES.map((g) => [String(g), gradeLabel(g)]),
            )}
            <FormMessage problem={problem} />
            <Stack
              component="section"
              aria-label="Account"
              direction="row"
              sx={{ flexWrap: 'wrap', gap: 1, pt: 2, borderTop: 1, borderColor: 'divider' }}
            >
              <StudentToolButtons row={student} tools={tools} labelled />
              <DialogProblem problem={tools.reactivationProblem} sx={{ width: '100%' }} />
            </Stack>
            {tools.dialog}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <InertButton onClick={onClose} unavailable={busy}>
            {erased ? 'Close' : 'Cancel'}
          </InertButton>
          {!erased && (
            <InertButton type="submit" variant="contained" unavailable={busy}>
              {busy ? 'Saving...' : 'Save'}
            </InertButton>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
