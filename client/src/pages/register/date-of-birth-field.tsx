import EventIcon from '@mui/icons-material/Event';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { DISPLAY_DATE_FORMAT } from '@tc/domain/constants';
import { OutlinedField } from '../../components/outlined-field.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import type { DateOfBirthFieldProps, DateOfBirthPickerProps } from './date-of-birth-picker.tsx';
import { withDayjs, type DayjsFunction } from './load-dayjs.ts';

const loadPicker = () => import('./date-of-birth-picker.tsx');

/** What shows a person is using the page (not a script): the picker's code is fetched then. */
const INTERACTIONS = ['pointerdown', 'touchstart', 'keydown', 'input', 'focusin'] as const;

function isControl(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLButtonElement
  );
}

/**
 * The date-of-birth field. The date picker is the largest part of the registration
 * page's code; it loads on demand (issue 13, item 19): on the parent's first tap, key
 * or field anywhere on the page, while they fill the fields above it, so that a slow
 * phone has less to run before the form answers and a visit that types nothing runs
 * none of it. Until then, and in the pre-rendered page, a plain field of the same
 * shape, label and calendar button stands in its place and takes the date typed as
 * DD/MM/YYYY; its button loads the picker and opens the calendar. The picker replaces
 * it once loaded, but not under the parent's fingers: while the plain field has focus,
 * it stays.
 */
export function DateOfBirthField(props: DateOfBirthFieldProps) {
  const hydrated = useHydrated();
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const [Picker, setPicker] = useState<ComponentType<DateOfBirthPickerProps> | null>(null);
  const [typing, setTyping] = useState(false);
  const requested = useRef(false);
  const load = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    void loadPicker().then(
      (module) => setPicker(() => module.default),
      () => (requested.current = false), // Offline: the calendar button tries again.
    );
  }, []);
  useEffect(() => {
    if (!hydrated) return;
    const stop = () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, want, { capture: true });
    };
    const want = (event: Event) => {
      // A heading focused after a route change is the page's doing, not the parent's.
      if (event.type === 'focusin' && !isControl(event.target)) return;
      stop();
      load();
    };
    // A field in use as the code arrives: the parent began before it (lib/use-early-input.ts).
    if (isControl(document.activeElement)) return load();
    for (const type of INTERACTIONS) window.addEventListener(type, want, { capture: true, passive: true });
    return stop;
  }, [hydrated, load]);
  if (Picker && !typing) return <Picker {...props} initiallyOpen={openOnLoad} />;
  const openCalendar = () => {
    setOpenOnLoad(true);
    setTyping(false);
    load();
  };
  return <TypedDate {...props} onFocusChange={setTyping} onOpenCalendar={openCalendar} />;
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
  onOpenCalendar,
}: DateOfBirthFieldProps & { onFocusChange: (focused: boolean) => void; onOpenCalendar: () => void }) {
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
  // In use while the focus is on its input or its calendar button (Tab from one to the other included).
  return (
    <div
      onFocus={() => onFocusChange(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onFocusChange(false);
      }}
    >
      <OutlinedField
        label="Date of Birth"
        name="dob"
        inputRef={input}
        value={shown}
        onChange={(event) => type(event.target.value)}
        placeholder={DISPLAY_DATE_FORMAT}
        htmlInput={{ inputMode: 'numeric' }}
        error={error}
        helperText={helperText}
        shrinkLabel
        endAdornment={
          <InputAdornment position="end">
            <IconButton aria-label="Choose date" onClick={onOpenCalendar} edge="end" disabled={!hydrated}>
              <EventIcon />
            </IconButton>
          </InputAdornment>
        }
      />
    </div>
  );
}
