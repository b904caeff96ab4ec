import type { Dayjs } from 'dayjs';
import { useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { DISPLAY_DATE_FORMAT } from '@tc/domain/constants';
import { OutlinedField } from '../../components/outlined-field.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import type { DateOfBirthFieldProps } from './date-of-birth-picker.tsx';
import { withDayjs, type DayjsFunction } from './load-dayjs.ts';

const loadPicker = () => import('./date-of-birth-picker.tsx');

/**
 * The date-of-birth field. The date picker is the largest part of the registration
 * page's code; it loads on its own, after the form has come alive, so a slow phone
 * can use the other fields sooner (issue 13, item 19). Until then, and in the
 * pre-rendered page, a plain field of the same shape and label stands in its place,
 * and takes the date typed as DD/MM/YYYY. The picker replaces it once loaded, but
 * not under the parent's fingers: while the plain field has focus, it stays.
 */
export function DateOfBirthField(props: DateOfBirthFieldProps) {
  const hydrated = useHydrated();
  const [Picker, setPicker] = useState<ComponentType<DateOfBirthFieldProps> | null>(null);
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    if (!hydrated) return;
    let mounted = true;
    void loadPicker().then((module) => mounted && setPicker(() => module.default));
    return () => {
      mounted = false;
    };
  }, [hydrated]);
  if (Picker && !typing) return <Picker {...props} />;
  return <TypedDate {...props} onFocusChange={setTyping} />;
}

/** DD/MM/YYYY (or DDMMYYYY) as a date; null when empty; an invalid date otherwise. */
function parseDisplayDate(dayjs: DayjsFunction, text: string): Dayjs | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const parts = /^(\d{1,2})\D+(\d{1,2})\D+(\d{4})$/.exec(trimmed) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(trimmed);
  if (!parts) return dayjs(null);
  const [day, month, year] = parts.slice(1).map(Number) as [number, number, number];
  const date = dayjs(new Date(year, month - 1, day));
  // new Date() rolls 31/02 over into March: such a date is not one.
  return date.date() === day && date.month() === month - 1 ? date : dayjs(null);
}

function TypedDate({
  value,
  onChange,
  error,
  helperText,
  onFocusChange,
}: DateOfBirthFieldProps & { onFocusChange: (focused: boolean) => void }) {
  const hydrated = useHydrated();
  // What the parent typed, as typed; until then the date of the form.
  const [text, setText] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const type = (typed: string) => {
    setText(typed);
    void withDayjs((dayjs) => onChange(parseDisplayDate(dayjs, typed)));
  };
  // Typed before the page's code arrived: kept (see lib/use-early-input.ts).
  useLayoutEffect(() => {
    const field = input.current;
    if (field && field.value !== field.defaultValue) type(field.value);
    // Once, when React takes the field over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const shown = text ?? (hydrated && value?.isValid() ? value.format(DISPLAY_DATE_FORMAT) : '');
  return (
    <OutlinedField
      label="Date of Birth"
      name="dob"
      inputRef={input}
      value={shown}
      onChange={(event) => type(event.target.value)}
      placeholder={DISPLAY_DATE_FORMAT}
      htmlInput={{
        inputMode: 'numeric',
        onFocus: () => onFocusChange(true),
        onBlur: () => onFocusChange(false),
      }}
      error={error}
      helperText={helperText}
      shrinkLabel
    />
  );
}
