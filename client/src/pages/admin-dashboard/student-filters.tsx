import Stack from '@mui/material/Stack';
import { useCallback, useMemo } from 'react';
import { STATUS_FILTERS } from '@tc/domain/admin-tools';
import { BOARDS } from '@tc/domain/constants';
import { FilterSelect, GRADE_CHOICES } from '../../components/filters-row.tsx';
import { useViewInAddress } from '../../lib/use-view-in-address.ts';

/** The table's view: search, filters, sort and page, kept in the page's URL. */
export interface StudentView {
  q: string;
  grade: string;
  board: string;
  status: string;
  sort: string;
  /** The page, counted from 0 as the Activity page's ('' is the first). */
  page: string;
  /** Rows a page ('' is the grid's first size). */
  size: string;
}

/** What picks the students and their order: the CSV export takes these. */
export const SELECTION_KEYS = ['q', 'grade', 'board', 'status', 'sort'] as const;
const KEYS = [...SELECTION_KEYS, 'page', 'size'] as const;
/** A change of one of these (a new search, filter or order) starts again from the first page. */
const FROM_FIRST_PAGE: readonly (keyof StudentView)[] = SELECTION_KEYS;

/** Reads and writes the view in the URL, so a reload, Back from another page or a bookmark shows the same students. */
export function useStudentView(): [StudentView, (changes: Partial<StudentView>) => void] {
  const [params, change] = useViewInAddress();
  const view = useMemo(
    () => Object.fromEntries(KEYS.map((key) => [key, params.get(key) ?? ''])) as unknown as StudentView,
    [params],
  );
  const changeView = useCallback(
    (changes: Partial<StudentView>) =>
      change(
        FROM_FIRST_PAGE.some((key) => key in changes && (changes[key] ?? '') !== (params.get(key) ?? ''))
          ? { ...changes, page: '' }
          : changes,
      ),
    [change, params],
  );
  return [view, changeView];
}

const STATUS_LABELS: Record<string, string> = { active: 'Active', deactivated: 'Deactivated', all: 'All' };
const BOARD_FILTERS = [['', 'All boards'], ...BOARDS.map((b) => [b, b] as const)] as const;
const STATUS_OPTIONS = STATUS_FILTERS.map((status) => [status, STATUS_LABELS[status]!] as const);
/** On a phone the filters share the row and wrap before a choice would be cut short ("Deactivated" is the longest). */
const FILTER_SX = { flex: { xs: '1 1 96px', md: 'none' }, width: { md: 150 }, minWidth: 0 } as const;
const STATUS_SX = { ...FILTER_SX, flex: { xs: '1 1 136px', md: 'none' } } as const;

/** Grade, board and status beside the search. */
export function StudentFilters({ view, onChange }: { view: StudentView; onChange: (c: Partial<StudentView>) => void }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ minWidth: 0, flexWrap: 'wrap' }}>
      <FilterSelect
        label="Grade"
        value={view.grade}
        onChange={(grade) => onChange({ grade })}
        options={GRADE_CHOICES}
        sx={FILTER_SX}
      />
      <FilterSelect
        label="Board"
        value={view.board}
        onChange={(board) => onChange({ board })}
        options={BOARD_FILTERS}
        sx={FILTER_SX}
      />
      <FilterSelect
        label="Status"
        value={view.status || 'active'}
        onChange={(status) => onChange({ status: status === 'active' ? '' : status })}
        options={STATUS_OPTIONS}
        sx={STATUS_SX}
      />
    </Stack>
  );
}
