import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import 'dayjs/locale/en-in';
import type { ReactNode } from 'react';

/**
 * The calendars' own words in the site's English (India's): "Thu, 26 Nov" in a calendar's
 * heading and "26 Nov 2026" read out for a date, as the fields show DD/MM/YYYY, not the
 * US order MUI X's adapter uses by default; weeks run Monday to Sunday, as the timetable's.
 */
const DATE_FORMATS = { normalDateWithWeekday: 'ddd, D MMM', shortDate: 'D MMM', normalDate: 'D MMMM' };

/**
 * The heading of a phone's calendar (its toolbar) before a date is picked: words, where MUI
 * X shows "––" (read out as "dash dash").
 */
export const CALENDAR_TOOLBAR = { toolbarPlaceholder: 'Pick a date' };

/** The one set-up of every date picker on the site. */
export function DateLocalization({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="en-in" dateFormats={DATE_FORMATS}>
      {children}
    </LocalizationProvider>
  );
}
