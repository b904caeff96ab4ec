import Box from '@mui/material/Box';
import type { ResponseOf } from '@tc/domain/api/contract';
import { isoToDisplayDate } from '@tc/domain/dates';

export type SubjectProgress = ResponseOf<'getMyProgress'>['subjects'][number];

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const shown = {
  width: '100%',
  mt: 1,
  borderCollapse: 'collapse',
  '& caption': { textAlign: 'left', color: 'text.secondary', mb: 0.5 },
  '& th, & td': { textAlign: 'left', py: 0.5, pr: 1, borderBottom: 1, borderColor: 'divider', verticalAlign: 'top' },
  '& td:nth-of-type(2)': { overflowWrap: 'anywhere' },
} as const;

/**
 * A subject's percentages over time as a table: under the chart for screen readers only
 * (`hidden`), or for everyone when the chart could not be loaded.
 */
export function TrendTable({ subject, hidden = false }: { subject: SubjectProgress; hidden?: boolean }) {
  return (
    <Box component="table" sx={hidden ? visuallyHidden : shown}>
      <caption>{subject.subject}: percentage per assessment, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Assessment</th>
          <th scope="col">Percentage</th>
        </tr>
      </thead>
      <tbody>
        {subject.points.map((p, i) => (
          // Two tests of one subject may share a date and a title; the list never reorders.
          <tr key={i}>
            <td>{isoToDisplayDate(p.date)}</td>
            <td>{p.title}</td>
            <td>{p.percentage}%</td>
          </tr>
        ))}
      </tbody>
    </Box>
  );
}
