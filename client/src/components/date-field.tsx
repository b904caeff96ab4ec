import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { DISPLAY_DATE_FORMAT } from '@tc/domain/constants';
import { CALENDAR_TOOLBAR, DateLocalization } from './date-localization.tsx';

/** What a date typed halfway (or not a date) is passed on as: the domain's date rule refuses it. */
export const UNFINISHED_DATE = 'unfinished';

/**
 * YYYY-MM-DD, '' for none, or UNFINISHED_DATE. A year under 1000 is one being typed
 * (its first digits make a valid year 2, 20, 202 on the way to 2026).
 */
function isoOf(date: Dayjs | null): string {
  if (date === null) return '';
  return date.isValid() && date.year() >= 1000 ? date.format('YYYY-MM-DD') : UNFINISHED_DATE;
}

interface DateFieldProps {
  label: string;
  name: string;
  /** YYYY-MM-DD, or '' for none. */
  value: string;
  /** YYYY-MM-DD, '' when cleared, or UNFINISHED_DATE while the date typed is not one. */
  onChange: (value: string) => void;
  error?: boolean;
  helperText?: string;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
}

/**
 * A date as the site shows and takes dates everywhere: DD/MM/YYYY, typed or picked
 * from a calendar (MUI X), whatever the browser's language. The admin's screens use
 * it; the registration's date of birth has its own, loaded on demand.
 */
export function DateField({ label, name, value, onChange, error, helperText, size, fullWidth }: DateFieldProps) {
  // The picker's own value, shown while the page's value is one on its way to it: the page
  // shows the values the picker gave in their order, and a value kept in the URL can lag
  // several behind on a busy machine, or skip the unfinished ones. `passed` holds the value
  // the page showed last and those given since; a page's value among them moves the page on
  // to it. Any other value is the page's own change (a form reset, Back): it is shown, as a
  // lagging one must not be, since it would set the sections again and wipe what is typed.
  const [own, setOwn] = useState<{ date: Dayjs | null; passed: readonly string[] }>({ date: null, passed: [] });
  const reached = own.passed.indexOf(value);
  if (reached > 0) setOwn({ ...own, passed: own.passed.slice(reached) });
  const current = reached >= 0 ? own.date : value && value !== UNFINISHED_DATE ? dayjs(value) : null;
  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={current}
        onChange={(date) => {
          const iso = isoOf(date);
          // From the latest state: two changes may come before a render.
          setOwn((last) => {
            const at = last.passed.indexOf(value);
            const onItsWay = at >= 0 ? last.passed.slice(at) : [value];
            return { date, passed: onItsWay.at(-1) === iso ? onItsWay : [...onItsWay, iso] };
          });
          onChange(iso);
        }}
        format={DISPLAY_DATE_FORMAT}
        slotProps={{
          textField: { name, error, helperText, size, fullWidth },
          popper: { 'aria-label': `Choose the ${label.toLowerCase()}` },
          toolbar: CALENDAR_TOOLBAR,
          dialog: { 'aria-label': `Choose the ${label.toLowerCase()}` },
        }}
      />
    </DateLocalization>
  );
}
