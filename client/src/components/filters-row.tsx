import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';

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
