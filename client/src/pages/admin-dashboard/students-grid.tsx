import Box from '@mui/material/Box';
import { STUDENTS_SIGNAL } from '@tc/domain/live';
import { useLiveSignal } from '../../lib/use-live-signal.ts';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { DataGrid, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Board, Grade, ListSortField } from '@tc/domain/constants';
import type { StudentRecord } from '@tc/domain/student';
import { UiMessage } from '@tc/domain/messages';
import { GridLoadingOverlay } from '../../components/grid-loading-overlay.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { focusIfReloadTakesIt, ifFocusLostAfterDialog } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import { studentColumns } from './student-columns.tsx';
import { StudentEditDialog } from './student-edit-dialog.tsx';
import type { StudentView } from './student-filters.tsx';
import { studentToolsColumn, useStudentTools } from './student-tools.tsx';

const PAGE_SIZES = [25, 50, 100];

/** The page the URL names: its number and size as the grid offers them, else the first page of 25 rows. */
function pageOf(view: Pick<StudentView, 'page' | 'size'>): GridPaginationModel {
  const page = Number(view.page);
  const size = Number(view.size);
  return {
    page: Number.isSafeInteger(page) && page > 0 ? page : 0,
    pageSize: PAGE_SIZES.includes(size) ? size : PAGE_SIZES[0]!,
  };
}

/** The grid's overlay of no rows, saying `text` in its middle. */
function textOverlay(text: string) {
  return function TextOverlay() {
    return (
      <Box sx={{ height: '100%', display: 'grid', placeItems: 'center' }}>
        <Typography>{text}</Typography>
      </Box>
    );
  };
}
const NoRowsOverlay = textOverlay('No students found');
/** In place of the rows when the first answer to a view did not come (the status above says so). */
const NotLoadedOverlay = textOverlay(UiMessage.studentsNotLoaded);

/**
 * The admin's table: pages, sorts and searches on the server.
 * Edit opens a dialog for that student. On a phone the table keeps every column of the
 * seed and scrolls sideways inside its card (design.md); the Tools column, the site's own
 * addition, is left to the student's editor there.
 */
interface StudentsGridProps {
  query: string;
  /** Filters, sort and page from the page's URL, and how to change the sort and page there. */
  view: Omit<StudentView, 'q'>;
  onViewChange: (changes: Pick<Partial<StudentView>, 'sort' | 'page' | 'size'>) => void;
  /** Where the focus goes when a tool's change takes away the row that had it. */
  focusAfterRowGone: () => void;
}

export default function StudentsGrid({ query, view, onViewChange, focusAfterRowGone }: StudentsGridProps) {
  const { token, call: callAsAdmin } = useApi('admin');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [editing, setEditing] = useState<StudentRecord | null>(null);
  const [rows, setRows] = useState<StudentRecord[]>([]);
  const [rowCount, setRowCount] = useState(0);
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  /** The view whose answer did not come: the rows on screen, if any, are not its answer. */
  const [failedKey, setFailedKey] = useState<string | null>(null);
  /** The view whose rows are on screen. */
  const [shownKey, setShownKey] = useState<string | null>(null);
  // The page, its size and the sort live in the URL, with the filters (a new search or
  // filter clears the page there: useStudentView).
  const paginationModel = useMemo(() => pageOf(view), [view]);
  const changePage = (model: GridPaginationModel) =>
    onViewChange({
      page: model.page > 0 ? String(model.page) : '',
      size: model.pageSize === PAGE_SIZES[0] ? '' : String(model.pageSize),
    });
  // One model while the sort is the same: the grid takes a new one for a new sort, and
  // goes back to the first page (a failed load's render moved a page-2 view to page 1).
  const sortModel: GridSortModel = useMemo(
    () => (view.sort ? [{ field: view.sort.replace(/^-/, ''), sort: view.sort.startsWith('-') ? 'desc' : 'asc' }] : []),
    [view.sort],
  );
  const changeSort = (model: GridSortModel) =>
    onViewChange({ sort: model[0] ? `${model[0].sort === 'desc' ? '-' : ''}${model[0].field}` : '' });
  const [reloads, setReloads] = useState(0);
  // A tool's change (a deactivation, an erasure): the table loads the view again.
  const reloadAfterTool = useCallback(() => setReloads((n) => n + 1), []);
  const tools = useStudentTools({ callAsAdmin, onChanged: reloadAfterTool, onOpenerGone: focusAfterRowGone });
  const { start: startTool, busyIds } = tools;
  // A registration, another admin's edit, a deactivation: the table loads the view again.
  useLiveSignal(STUDENTS_SIGNAL, token, () => setReloads((n) => n + 1));
  const sort = view.sort || undefined;

  const request = useMemo(
    () => ({
      skip: paginationModel.page * paginationModel.pageSize,
      limit: paginationModel.pageSize,
      q: query || undefined,
      sort: sort as ListSortField | `-${ListSortField}` | undefined,
      grade: view.grade ? (Number(view.grade) as Grade) : undefined,
      board: (view.board || undefined) as Board | undefined,
      status: (view.status || undefined) as 'active' | 'deactivated' | 'all' | undefined,
    }),
    [paginationModel, query, sort, view.grade, view.board, view.status],
  );
  // Loading until the answer to the current view has arrived. A reload of the same view
  // (a live signal, a tool's change) keeps the rows on screen until the new ones come:
  // the table does not blink, and a screen reader keeps its place.
  const requestKey = JSON.stringify(request);
  const loading = loadedKey !== requestKey;
  // A view that did not come says so, with "Try again": rows of another view (another page,
  // search or filter) are not shown as its answer; a reload of the view on screen that did not
  // come keeps its rows, said to be from before.
  const failed = !loading && failedKey === requestKey;
  const showingBefore = failed && shownKey === requestKey && rows.length > 0;
  const [retrying, setRetrying] = useState(false);
  /** The table's box: after "Try again" has brought the rows, the focus goes on to the grid. */
  const table = useRef<HTMLDivElement>(null);
  if (retrying && !loading) setRetrying(false);

  useEffect(() => {
    let cancelled = false;
    void callAsAdmin('listStudents', request).then((result) => {
      if (cancelled) return;
      const key = JSON.stringify(request);
      setLoadedKey(key);
      setFailedKey(result.ok ? null : key);
      if (result.ok && Array.isArray(result.data)) {
        setShownKey(key);
        // A reload (a tool's change, another admin's) may take away the row whose button has the
        // focus: it goes to the search, unless the grid has moved it to the next row. (A dialog
        // that closes after its button has gone moves it itself: useStudentTools' onOpenerGone.)
        focusIfReloadTakesIt(focusAfterRowGone);
        setRows(result.data);
        const total = Number(result.headers?.get('X-Total-Count'));
        setRowCount(Number.isFinite(total) && total >= 0 ? total : result.data.length);
      } else if (!result.sessionEnded) {
        // A session that ended is handled by useApi; any other failure, the seed's words.
        notify.error(UiMessage.errorLoadingData);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [callAsAdmin, request, reloads, focusAfterRowGone]);
  const shownRows = failed && !showingBefore ? [] : rows;
  // A page past the last (an address kept from before, the last rows of the last page
  // deactivated meanwhile): the last page with rows instead, in the address too.
  const lastPage = Math.max(0, Math.ceil(rowCount / paginationModel.pageSize) - 1);
  const pastTheEnd = !loading && shownKey === requestKey && rows.length === 0 && paginationModel.page > lastPage;
  useEffect(() => {
    if (pastTheEnd) onViewChange({ page: lastPage > 0 ? String(lastPage) : '' });
  }, [pastTheEnd, lastPage, onViewChange]);

  const columns = useMemo(
    () => [
      ...studentColumns((objectId) => setEditing(rows.find((row) => row.objectId === objectId) ?? null)),
      ...(phone ? [] : [studentToolsColumn({ start: startTool, busyIds })]),
    ],
    [rows, phone, startTool, busyIds],
  );

  // The editor gives the focus back to its row's Edit button, unless a reload has taken the row away meanwhile.
  const closeEditor = () => {
    setEditing(null);
    ifFocusLostAfterDialog(focusAfterRowGone);
  };
  const saved = (student: StudentRecord) => {
    setRows((current) => current.map((row) => (row.objectId === student.objectId ? student : row)));
    closeEditor();
  };

  return (
    // The grid grows with its rows up to the box's height, then scrolls under a sticky header.
    <Box
      ref={table}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        maxHeight: { xs: 600, md: 'max(480px, calc(100vh - 300px))' },
        width: '100%',
        minWidth: 0,
      }}
    >
      {(failed || retrying) && (
        <Box sx={{ mb: 1 }}>
          <LoadStatus
            failed={failed}
            loadingText="Loading students ..."
            failedText={showingBefore ? UiMessage.studentsNotLoadedShowingBefore : UiMessage.studentsNotLoaded}
            onRetry={() => {
              // Loading again, and said so, until the answer comes (not the failure meanwhile).
              setLoadedKey(null);
              setRetrying(true);
              setReloads((n) => n + 1);
            }}
            focusAfterLoad={() => table.current?.querySelector<HTMLElement>('[role="grid"]') ?? null}
          />
        </Box>
      )}
      <DataGrid
        aria-label="Registered students"
        rows={shownRows}
        columns={columns}
        getRowId={(row) => row.objectId}
        // A view that did not come, or none yet (a page from the address, before its first
        // answer), has no total to show: an unknown one (-1), not 0, which would move the grid
        // back to the first page and away from the page asked for.
        rowCount={(failed && !showingBefore) || shownKey === null ? -1 : rowCount}
        loading={loading}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        paginationModel={paginationModel}
        onPaginationModelChange={changePage}
        pageSizeOptions={PAGE_SIZES}
        sortModel={sortModel}
        onSortModelChange={changeSort}
        disableColumnFilter
        // At most 100 rows a page: render them all, so every cell is in the DOM
        // (screen readers, find-in-page) and the Edit column is reachable on a phone.
        disableVirtualization
        disableRowSelectionOnClick
        slots={{ loadingOverlay: GridLoadingOverlay, noRowsOverlay: failed ? NotLoadedOverlay : NoRowsOverlay }}
        sx={{
          bgcolor: 'background.paper',
          '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 800 },
          // The grid hides the page size on a phone, with its label: the size shows (its
          // label, out of sight there, still names it), so a size from the address can change.
          '& .MuiTablePagination-root .MuiTablePagination-input': { display: 'inline-flex' },
        }}
      />
      {/* What a search or a filter found, read out when it changes (the grid itself is silent). */}
      <Typography role="status" className="visually-hidden">
        {loading
          ? 'Loading students ...'
          : failed
            ? ''
            : rowCount === 0
              ? 'No students match'
              : `${rowCount} ${rowCount === 1 ? 'student' : 'students'} found`}
      </Typography>
      {tools.dialog}
      {editing && (
        <StudentEditDialog
          key={editing.objectId}
          student={editing}
          callAsAdmin={callAsAdmin}
          onSaved={saved}
          onChanged={() => {
            setEditing(null);
            reloadAfterTool();
          }}
          onClose={closeEditor}
        />
      )}
    </Box>
  );
}
