import Alert from '@mui/material/Alert';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * Why a change asked for in a dialog failed, said in the dialog: a toast behind an open
 * dialog is hidden from screen readers. Nothing while there is no problem.
 */
export function DialogProblem({ problem, sx = { mt: 2 } }: { problem?: string | null; sx?: SxProps<Theme> }) {
  if (!problem) return null;
  return (
    <Alert severity="error" role="alert" sx={sx}>
      {problem}
    </Alert>
  );
}
