// The text field and the native select of the public forms (registration, the
// logins, the password reset): MUI's outlined field put together from its parts.
// MUI's TextField imports its Select, and with it the menu, popover, modal and
// focus trap, whether a page uses them or not: about 12 kB gzip that every public
// form paid before it could take input (issue 13, item 19). These render the same
// DOM and styles as `<TextField>` and `<TextField select slotProps={{ select:
// { native: true } }}>` (the select with the outlined styles of MUI's NativeSelect,
// whose own component brings the standard variant's input along). The admin
// screens keep TextField.

import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel, { type InputLabelProps } from '@mui/material/InputLabel';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { styled } from '@mui/material/styles';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import { forwardRef, useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

interface FieldProps {
  label: string;
  name?: string;
  value: string;
  error?: boolean;
  helperText?: ReactNode;
  /** Keeps the label above the field even when it is empty. */
  shrinkLabel?: boolean;
  required?: boolean;
  disabled?: boolean;
}

export interface OutlinedFieldProps extends FieldProps {
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Attributes of the `<input>` itself (inputMode, maxLength, readOnly...). */
  htmlInput?: InputHTMLAttributes<HTMLInputElement> & Record<`aria-${string}` | `data-${string}`, unknown>;
  endAdornment?: OutlinedInputProps['endAdornment'];
}

/** The frame both share: the form control, its label, the helper text. */
function Frame({
  id,
  label,
  error,
  helperText,
  shrinkLabel,
  required,
  disabled,
  children,
}: Omit<FieldProps, 'name' | 'value'> & { id: string; children: ReactNode }) {
  const labelProps: InputLabelProps = shrinkLabel ? { shrink: true } : {};
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      error={error}
      required={required}
      disabled={disabled}
      fullWidth
    >
      <InputLabel htmlFor={id} id={`${id}-label`} {...labelProps}>
        {label}
      </InputLabel>
      {children}
      {helperText && <FormHelperText id={`${id}-helper-text`}>{helperText}</FormHelperText>}
    </FormControl>
  );
}

/** What the outlined input takes from its frame: the label's notch and the helper text's id. */
function framed(id: string, { label, shrinkLabel, helperText }: FieldProps) {
  return {
    label,
    notched: shrinkLabel || undefined,
    'aria-describedby': helperText ? `${id}-helper-text` : undefined,
    fullWidth: true,
  };
}

/** An outlined text input with its label and helper text, as MUI's TextField draws it. */
export function OutlinedField(props: OutlinedFieldProps) {
  const { name, value, onChange, type, autoComplete, placeholder, inputRef, htmlInput, endAdornment } = props;
  const id = useId();
  return (
    <Frame id={id} {...props}>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        // Blank, for the pre-rendered page's :placeholder-shown (styles/site.css).
        placeholder={placeholder ?? ' '}
        value={value}
        onChange={onChange}
        inputRef={inputRef}
        inputProps={htmlInput}
        endAdornment={endAdornment}
        {...framed(id, props)}
      />
    </Frame>
  );
}

export interface OutlinedSelectProps extends FieldProps {
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  /** The `<option>` elements. */
  children: ReactNode;
}

const Select = styled('select')(({ theme }) => ({
  appearance: 'none',
  userSelect: 'none',
  cursor: 'pointer',
  borderRadius: theme.shape.borderRadius,
  '&&&': { paddingRight: 32 },
  '&:not([multiple]) option': { backgroundColor: theme.palette.background.paper },
}));

const SelectIcon = styled(ArrowDropDown)(({ theme }) => ({
  position: 'absolute',
  right: 7,
  top: 'calc(50% - .5em)',
  pointerEvents: 'none',
  color: theme.palette.action.active,
}));

/** The `<select>` and its arrow, inside the outlined input's frame. */
const SelectInput = forwardRef<HTMLSelectElement, InputBaseComponentProps>(function SelectInput(props, ref) {
  return (
    <>
      <Select {...props} ref={ref} />
      <SelectIcon />
    </>
  );
});

/** A native `<select>` in the outlined frame: the phone's own picker, no menu code. */
export function OutlinedSelect(props: OutlinedSelectProps) {
  const { name, value, onChange, children } = props;
  const id = useId();
  return (
    <Frame id={id} {...props}>
      <OutlinedInput
        id={id}
        name={name}
        value={value}
        // The input's element is the <select> (SelectInput).
        onChange={(event) => onChange(event as unknown as ChangeEvent<HTMLSelectElement>)}
        inputComponent={SelectInput}
        inputProps={{ children }}
        {...framed(id, props)}
      />
    </Frame>
  );
}
