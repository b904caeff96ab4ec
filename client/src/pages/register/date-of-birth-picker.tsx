import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { DATE_MIN, DISPLAY_DATE_FORMAT } from '@tc/domain/constants';
import { CALENDAR_TOOLBAR, DateLocalization } from '../../components/date-localization.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';

const minDate = dayjs(DATE_MIN);
/** Grades 1 to 9 are children of about 6 to 15: the calendar opens on the birth year of a 10-year-old. */
const TYPICAL_AGE_YEARS = 10;

export interface DateOfBirthFieldProps {
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  error: boolean;
  helperText?: string;
}

export interface DateOfBirthPickerProps extends DateOfBirthFieldProps {
  /** Opens the calendar at once: the parent asked for it before the picker had loaded. */
  initiallyOpen?: boolean;
}

/**
 * The date of birth, DD/MM/YYYY, with its calendar (MUI X, loaded on its own: see date-of-birth-field.tsx). The page may have been pre-rendered on another day, so
 * the date shows once React has taken the page over; only this field renders again then.
 */
export default function DateOfBirthPicker({
  value,
  onChange,
  error,
  helperText,
  initiallyOpen = false,
}: DateOfBirthPickerProps) {
  const hydrated = useHydrated();
  const today = useMemo(() => dayjs().endOf('day'), []);
  const typicalBirthday = useMemo(() => today.subtract(TYPICAL_AGE_YEARS, 'year').startOf('day'), [today]);
  const [open, setOpen] = useState(initiallyOpen);
  // The form's value starts as today (as the original form did), which is no child's
  // birthday: while the calendar is open on that default, it shows no selection and
  // starts from a typical child's birth year instead. Picking a year sets the value.
  const untouched = value !== null && value.isSame(today, 'day');
  return (
    <DateLocalization>
      <DatePicker
        label="Date of Birth"
        value={hydrated && !(open && untouched) ? value : null}
        referenceDate={typicalBirthday}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        onChange={onChange}
        format={DISPLAY_DATE_FORMAT}
        views={['year', 'month', 'day']}
        openTo="year"
        // No future years, the latest first.
        maxDate={today}
        yearsOrder="desc"
        minDate={minDate}
        slotProps={{
          textField: { name: 'dob', fullWidth: true, error, helperText },
          // The calendar is a dialog: it needs a name of its own.
          popper: { 'aria-label': 'Choose the date of birth' },
          toolbar: CALENDAR_TOOLBAR,
          dialog: { 'aria-label': 'Choose the date of birth' },
        }}
      />
    </DateLocalization>
  );
}
