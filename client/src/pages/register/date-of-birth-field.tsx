import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_MAX, DATE_MIN, DISPLAY_DATE_FORMAT } from '@tc/domain/constants';
import { useHydrated } from '../../lib/use-hydrated.ts';

const minDate = dayjs(DATE_MIN);
const maxDate = dayjs(DATE_MAX);

interface DateOfBirthFieldProps {
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  error: boolean;
  helperText?: string;
}

/**
 * The date of birth, DD/MM/YYYY. The page may have been pre-rendered on another day, so
 * the date shows once React has taken the page over; only this field renders again then.
 */
export function DateOfBirthField({ value, onChange, error, helperText }: DateOfBirthFieldProps) {
  const hydrated = useHydrated();
  return (
    <DatePicker
      label="Date of Birth"
      value={hydrated ? value : null}
      onChange={onChange}
      format={DISPLAY_DATE_FORMAT}
      views={['year', 'month', 'day']}
      openTo="year"
      minDate={minDate}
      maxDate={maxDate}
      slotProps={{ textField: { name: 'dob', fullWidth: true, error, helperText } }}
    />
  );
}
