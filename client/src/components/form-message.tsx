import Typography from '@mui/material/Typography';
import type { FormProblem } from '../lib/use-form-problem.ts';

/**
 * A problem no single field is to blame for (a wrong password, a refused call),
 * kept on the form until the user changes something: the toast goes away, this
 * does not. It takes focus when shown, so a screen reader reads it.
 */
export function FormMessage({ problem }: { problem: FormProblem<string> | null }) {
  if (!problem || problem.field) return null;
  return (
    <Typography id={problem.id} tabIndex={-1} color="error" sx={{ fontWeight: 700, outline: 'none' }}>
      {problem.message}
    </Typography>
  );
}
