import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { STATUS_FILTERS } from '@tc/domain/admin-tools';
import { BOARDS, GRADES } from '@tc/domain/constants';
import { gradeLabel } from '@tc/domain/registration';

/** The table's view: search, filters and sort, kept in the page's URL. */
export interface StudentView {
  q: string;
  grade: string;
  board: string;
  status: string;
  sort: string;
}

const KEYS = ['q', 'grade', 'board', 'status', 'sort'] as const;

/** Reads and writes the view in the URL, so a reload or a bookmark shows the same students. */
export function useStudentView(): [StudentView, (changes: Partial<StudentView>) => void] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(
    () => Object.fromEntries(KEYS.map((key) => [key, params.get(key) ?? ''])) as unknown as StudentView,
    [params],
  );
  const update = useCallback(
    (changes: Partial<StudentView>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [view, update];
}

const STATUS_LABELS: Record<string, string> = { active: 'Active', deactivated: 'Deactivated', all: 'All' };

/** Grade, board and status beside the search. */
export function StudentFilters({ view, onChange }: { view: StudentView; onChange: (c: Partial<StudentView>) => void }) {
  const select = {
    select: true,
    size: 'small',
    fullWidth: false,
    sx: { flex: { xs: 1, md: 'none' }, width: { md: 150 }, minWidth: 0 },
  } as const;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ minWidth: 0 }}>
      <TextField {...select} label="Grade" value={view.grade} onChange={(e) => onChange({ grade: e.target.value })}>
        <MenuItem value="">All grades</MenuItem>
        {GRADES.map((grade) => (
          <MenuItem key={grade} value={String(grade)}>
            {gradeLabel(grade)}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...select} label="Board" value={view.board} onChange={(e) => onChange({ board: e.target.value })}>
        <MenuItem value="">All boards</MenuItem>
        {BOARDS.map((board) => (
          <MenuItem key={board} value={board}>
            {board}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...select}
        label="Status"
        value={view.status || 'active'}
        onChange={(e) => onChange({ status: e.target.value === 'active' ? '' : e.target.value })}
      >
        {STATUS_FILTERS.map((status) => (
          <MenuItem key={status} value={status}>
            {STATUS_LABELS[status]}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
