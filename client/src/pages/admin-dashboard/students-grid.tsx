import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  GridRowModes,
  type GridPaginationModel,
  type GridRowModesModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { EDITABLE_STUDENT_FIELDS, type StudentRecord } from '@tc/domain/student';
import { UiMessage } from '@tc/domain/messages';
import { api } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { dobForSaving, studentColumns } from './student-columns.tsx';
import type { StudentView } from './student-filters.tsx';
import { studentToolsColumn } from './student-tools.tsx';

const PAGE_SIZES = [25, 50, 100];

function LoadingOverlay() {
  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <LinearProgress aria-hidden="true" />
      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', bgcolor: 'rgba(255,255,255,0.6)' }}>
        <Typography role="status">Loading ...</Typography>
      </Box>
    </Box>
  );
}

function NoRowsOverlay() {
  return (
    <Box sx={{ height: '100%', display: 'grid', placeItems: 'center' }}>
      <Typography>No students found</Typography>
    </Box>
  );
}

interface StudentsGridProps {
  token: string;
  query: string;
  onUnauthorized: () => void;
  /** Filters and sort from the page's URL (product.md §9), and how to change the sort there. */
  view?: Omit<StudentView, 'q'>;
  onSortChange?: (sort: string) => void;
}

/** The admin's table: pages, sorts and searches on the server (product.md §5 call 13, §7). */
export function StudentsGrid({ token, query, onUnauthorized, view, onSortChange }: StudentsGridProps) {
  const [rows, setRows] = useState<StudentRecord[]>([]);
  const [rowCount, setRowCount] = useState(0);
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  const [paginationModel, setPaginationModel] = useState<GridPaginationModel>({ page: 0, pageSize: PAGE_SIZES[0] });
  const [ownSortModel, setSortModel] = useState<GridSortModel>([]);
  // The sort lives in the URL when the page keeps the view there.
  const sortModel: GridSortModel = view
    ? view.sort
      ? [{ field: view.sort.replace(/^-/, ''), sort: view.sort.startsWith('-') ? 'desc' : 'asc' }]
      : []
    : ownSortModel;
  const changeSort = (model: GridSortModel) => {
    if (!onSortChange) return setSortModel(model);
    onSortChange(model[0] ? `${model[0].sort === 'desc' ? '-' : ''}${model[0].field}` : '');
  };
  const [reloads, setReloads] = useState(0);
  const filterKey = JSON.stringify([view?.grade, view?.board, view?.status]);
  const [filtered, setFiltered] = useState(filterKey);
  if (filtered !== filterKey) {
    setFiltered(filterKey);
    setPaginationModel((model) => ({ ...model, page: 0 }));
  }
  const [rowModesModel, setRowModesModel] = useState<GridRowModesModel>({});
  const [searched, setSearched] = useState(query);

  // A new search starts again from the first page.
  if (searched !== query) {
    setSearched(query);
    setPaginationModel((model) => ({ ...model, page: 0 }));
  }

  const sort = sortModel[0] ? `${sortModel[0].sort === 'desc' ? '-' : ''}${sortModel[0].field}` : undefined;

  const request = useMemo(
    () => ({
      skip: paginationModel.page * paginationModel.pageSize,
      limit: paginationModel.pageSize,
      q: query || undefined,
      sort,
      grade: view?.grade || undefined,
      board: view?.board || undefined,
      status: view?.status || undefined,
      reload: reloads || undefined,
    }),
    [paginationModel, query, sort, view?.grade, view?.board, view?.status, reloads],
  );
  const requestKey = JSON.stringify(request);
  // Loading until the answer to the current request has arrived.
  const loading = loadedKey !== requestKey;

  useEffect(() => {
    let cancelled = false;
    const { reload: _reload, ...listing } = request;
    void api<StudentRecord[]>('/api/users', { token, query: listing }).then((result) => {
      if (cancelled) return;
      setLoadedKey(JSON.stringify(request));
      if (result.ok && Array.isArray(result.data)) {
        setRows(result.data);
        const total = Number(result.headers?.get('X-Total-Count'));
        setRowCount(Number.isFinite(total) && total >= 0 ? total : result.data.length);
      } else if (result.status === 401 || result.status === 403) {
        notify.error(UiMessage.sessionExpired);
        onUnauthorized();
      } else {
        notify.error(UiMessage.errorLoadingData);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, request, onUnauthorized]);

  const columns = useMemo(
    () => [
      ...studentColumns({
        rowModesModel,
        onEdit: (id) => setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.Edit, fieldToFocus: 'gender' } })),
        onSave: (id) => setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.View } })),
        onCancel: (id) =>
          setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.View, ignoreModifications: true } })),
      }),
      studentToolsColumn(token, () => setReloads((n) => n + 1)),
    ],
    [rowModesModel, token],
  );

  const processRowUpdate = useCallback(
    async (newRow: StudentRecord, oldRow: StudentRecord): Promise<StudentRecord> => {
      const changes: Record<string, unknown> = {};
      for (const field of EDITABLE_STUDENT_FIELDS) {
        const next = field === 'dob' ? dobForSaving(newRow.dob) : newRow[field];
        const before = oldRow[field];
        if (next !== before) changes[field] = typeof next === 'string' ? next.trim() : next;
      }
      if (Object.keys(changes).length === 0) return oldRow;
      const result = await api<StudentRecord>(`/api/users/${encodeURIComponent(oldRow.objectId)}`, {
        method: 'PUT',
        body: changes,
        token,
      });
      if (result.status === 401) {
        onUnauthorized();
        throw new Error(UiMessage.sessionExpired);
      }
      if (!result.ok) throw new Error(errorText(result, UiMessage.updateFailed));
      const saved = { ...oldRow, ...changes, ...(result.data ?? {}) } as StudentRecord;
      setRows((current) => current.map((row) => (row.objectId === saved.objectId ? saved : row)));
      notify.success(UiMessage.studentUpdated);
      return saved;
    },
    [token, onUnauthorized],
  );

  return (
    // The grid grows with its rows up to the box's height, then scrolls under a sticky header.
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        maxHeight: { xs: 600, md: 'max(480px, calc(100vh - 300px))' },
        width: '100%',
        minWidth: 0,
      }}
    >
      <DataGrid
        aria-label="Registered students"
        rows={rows}
        columns={columns}
        getRowId={(row) => row.objectId}
        rowCount={rowCount}
        loading={loading}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        paginationModel={paginationModel}
        onPaginationModelChange={setPaginationModel}
        pageSizeOptions={PAGE_SIZES}
        sortModel={sortModel}
        onSortModelChange={changeSort}
        disableColumnFilter
        // At most 100 rows a page: render them all, so every cell is in the DOM
        // (screen readers, find-in-page) and the Edit column is reachable on a phone.
        disableVirtualization
        disableRowSelectionOnClick
        editMode="row"
        rowModesModel={rowModesModel}
        onRowModesModelChange={setRowModesModel}
        processRowUpdate={processRowUpdate}
        onProcessRowUpdateError={(error: unknown) =>
          notify.error(error instanceof Error && error.message ? error.message : UiMessage.updateFailed)
        }
        slots={{ loadingOverlay: LoadingOverlay, noRowsOverlay: NoRowsOverlay }}
        sx={{ bgcolor: 'background.paper', '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 800 } }}
      />
    </Box>
  );
}
