import TextField from '@mui/material/TextField';
import { lazy, Suspense, useEffect } from 'react';
import { DISPLAY_DATE_FORMAT } from '@tc/domain/constants';
import { useHydrated } from '../../lib/use-hydrated.ts';
import type { DateOfBirthFieldProps } from './date-of-birth-picker.tsx';

const loadPicker = () => import('./date-of-birth-picker.tsx');
const DateOfBirthPicker = lazy(loadPicker);

/**
 * The date-of-birth field. The date picker is the largest part of the registration
 * page's code; it loads on its own, after the form has come alive, so a slow phone
 * can use the other fields sooner (issue 13, item 19). Meanwhile a field of the
 * same shape and label stands in its place.
 */
export function DateOfBirthField(props: DateOfBirthFieldProps) {
  useEffect(() => {
    void loadPicker();
  }, []);
  return (
    <Suspense fallback={<DateOfBirthPlaceholder {...props} />}>
      <DateOfBirthPicker {...props} />
    </Suspense>
  );
}

function DateOfBirthPlaceholder({ value, error, helperText }: DateOfBirthFieldProps) {
  const hydrated = useHydrated();
  return (
    <TextField
      label="Date of Birth"
      value={hydrated && value?.isValid() ? value.format(DISPLAY_DATE_FORMAT) : ''}
      placeholder={DISPLAY_DATE_FORMAT}
      error={error}
      helperText={helperText}
      slotProps={{ htmlInput: { readOnly: true, 'aria-busy': true }, inputLabel: { shrink: true } }}
    />
  );
}
