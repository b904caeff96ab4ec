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
  // The picker's own value, shown while our value is the one it gave, or still the
  // one it replaced (the page has not caught up yet, as with a value kept in the
  // URL): any other value would set the field's sections again and wipe what is
  // being typed. Once the page has caught up, a change of ours (a form reset) wins.
  const [own, setOwn] = useState<{ date: Dayjs | null; replaced: string | null } | null>(null);
  const given = own ? isoOf(own.date) : null;
  if (own && own.replaced !== null && value === given && value !== own.replaced) setOwn({ ...own, replaced: null });
  const current =
    own && (value === given || value === own.replaced)
      ? own.date
      : value && value !== UNFINISHED_DATE
        ? dayjs(value)
        : null;
  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={current}
        onChange={(date) => {
          setOwn({ date, replaced: value });
          onChange(isoOf(date));
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
