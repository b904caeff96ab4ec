import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { GRADES } from '@tc/domain/constants';
import { gradeLabel } from '@tc/domain/registration';

/**
 * The row of search and filter fields above a table: stacked on phones, side by
 * side from md. `grow`: the text fields share the row's width.
 */
export function FiltersRow({ grow = false, children }: { grow?: boolean; children: ReactNode }) {
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={1.5}
      useFlexGap
      sx={{
        mb: 2,
        ...(grow
          ? { '& > .MuiTextField-root': { flex: 1, minWidth: 0 } }
          : { alignItems: { md: 'center' }, flexWrap: 'wrap' }),
      }}
    >
      {children}
    </Stack>
  );
}

interface FilterSelectProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Each choice as [value, label]; '' is "all". */
  options: readonly (readonly [string, string])[];
  sx?: SxProps<Theme>;
}

/** The grade filter's choices: every grade, or all. */
export const GRADE_CHOICES = [['', 'All grades'], ...GRADES.map((g) => [String(g), gradeLabel(g)] as const)] as const;

/** One filter of a table: a small select list of its choices. */
export function FilterSelect({ label, value, onChange, options, sx }: FilterSelectProps) {
  return (
    <TextField
      select
      size="small"
      fullWidth={false}
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={sx}
    >
      {options.map(([choice, text]) => (
        <MenuItem key={choice} value={choice}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}
