import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  DataGrid,
  useGridApiRef,
  type GridColDef,
  type GridEventListener,
  type GridPaginationModel,
} from '@mui/x-data-grid';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ABSENT, MarksText, isInBatch, markText, parseMarkValue } from '@tc/domain/assessments';
import { gradeLabel } from '@tc/domain/registration';
import type { ResponseOf } from '@tc/domain/api/contract';
import { UiMessage } from '@tc/domain/messages';
import { GridLoadingOverlay } from '../../components/grid-loading-overlay.tsx';
import { InertButton } from '../../components/inert-button.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { UnsavedChangesPrompt } from '../../components/unsaved-changes-prompt.tsx';
import { attended } from '../../lib/attention.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useApi } from '../../lib/use-api.ts';
import type { Assessment } from './assessment-dialog.tsx';
import { CsvImportDialog } from './csv-import-dialog.tsx';

type Row = ResponseOf<'listAssessmentMarks'>[number];

/** A note in a cell: wrapped, and centred in the row's height like the other cells. */
const CELL_TEXT = { whiteSpace: 'normal', display: 'flex', alignItems: 'center', height: '100%' } as const;

const PAGE_SIZES = [25, 50, 100];

const SEARCH_DEBOUNCE_MS = 300;

/** Rows whose problem a phone lists above the grid (the rest are counted). */
const PROBLEMS_LISTED = 5;

/**
 * How often the session is used while marks wait unsaved and someone is at the page: typing
 * makes no call, and an admin's session ends after 30 idle minutes (with the marks typed).
 */
const KEEP_SESSION_MS = 5 * 60_000;

/** A cell's text as it will be stored: "17.5", "absent" or "" (what the server would read it as). */
function tidy(text: string, maxMarks: number): string {
  const parsed = parseMarkValue(text, maxMarks);
  return parsed.ok ? markText(parsed.value) : text.trim();
}

function withoutIds<T>(all: Record<number, T>, ids: readonly number[]): Record<number, T> {
  const next = { ...all };
  for (const id of ids) delete next[id];
  return next;
}

interface Props {
  assessment: Assessment;
  /** Marks changed on the server (the average moved). */
  onSaved: () => void;
  /** The number of unsaved cells, each time it changes (0 when the grid goes). */
  onUnsavedChange: (count: number) => void;
}

/**
 * The batch's students with a marks cell each, typed like a spreadsheet (the
 * grid's cell editing: type to start, Enter saves the cell and moves down,
 * Escape reverts it). Changes stay here until "Save" sends them in one request;
 * rows the server refuses keep their change and show its message.
 */
export function MarksGrid({ assessment, onSaved, onUnsavedChange }: Props) {
  const { call: callAsAdmin } = useApi('admin');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  /** The request whose answer did not come: the rows on screen are not its answer. */
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: PAGE_SIZES[1]! });
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  /** Unsaved cell texts by enrollment id, the server's value of each, and whose it is (for a row on another page). */
  const [changes, setChanges] = useState<Record<number, { value: string; original: string; fullname: string }>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [importing, setImporting] = useState(false);
  const apiRef = useGridApiRef();
  /** How the last press on the grid came (a tap is 'touch'): a click event may not say. */
  const pressedWith = useRef('mouse');
  /** The row whose marks cell is being typed in (its text not yet taken into `changes`), if any. */
  const [typingIn, setTypingIn] = useState<number | null>(null);
  const max = assessment.maxMarks;
  // The maximum the unsaved marks were checked against: an edit of the assessment that
  // changes it checks them again (18 typed against 20 is refused once the maximum is 10).
  const [checkedMax, setCheckedMax] = useState(max);
  if (checkedMax !== max) {
    setCheckedMax(max);
    setErrors((all) => {
      const next = { ...all };
      for (const [id, { value }] of Object.entries(changes)) {
        const now = parseMarkValue(value, max);
        const before = parseMarkValue(value, checkedMax);
        if (!now.ok) next[Number(id)] = now.message;
        // Only the old maximum's own refusal goes; one of the server's stays until a save.
        else if (!before.ok && next[Number(id)] === before.message) delete next[Number(id)];
      }
      return next;
    });
  }

  useEffect(() => {
    // Only a new search goes back to the first page (not the first render: that would load twice).
    const next = search.trim();
    if (next === query) return;
    const timer = window.setTimeout(() => {
      setQuery(next);
      setPagination((p) => ({ ...p, page: 0 }));
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, query]);

  const request = useMemo(
    () => ({
      objectId: assessment.objectId,
      skip: pagination.page * pagination.pageSize,
      limit: pagination.pageSize,
      q: query || undefined,
      reload,
    }),
    [assessment.objectId, pagination, query, reload],
  );
  const requestKey = JSON.stringify(request);
  // Loading until the answer to the current request has arrived.
  const loading = loadedKey !== requestKey;
  const failed = !loading && failedKey === requestKey;
  // "Try again" pressed: the failure's place says it loads (and keeps the focus) until it has.
  const [retrying, setRetrying] = useState(false);
  if (retrying && !loading) setRetrying(false);

  useEffect(() => {
    let cancelled = false;
    const { reload: _again, ...input } = request;
    void callAsAdmin('listAssessmentMarks', input).then((result) => {
      if (cancelled) return;
      setLoadedKey(JSON.stringify(request));
      setFailedKey(result.ok && result.data ? null : JSON.stringify(request));
      if (result.ok && result.data) {
        setRows(result.data);
        // A cell open on a row this answer no longer has (a search that went on) is no longer typed in.
        const listed = new Set(result.data.map((row) => row.id));
        setTypingIn((id) => (id !== null && listed.has(id) ? id : null));
        setTotal(Number(result.headers?.get('X-Total-Count') ?? result.data.length));
      } else if (!result.sessionEnded) notify.error(errorText(result, UiMessage.errorLoadingData));
    });
    return () => {
      cancelled = true;
    };
  }, [callAsAdmin, request]);

  const shown = useMemo(
    () => rows.map((row) => (changes[row.id] ? { ...row, value: changes[row.id]!.value } : row)),
    [rows, changes],
  );

  /** What the server has for a row (its value before any unsaved change). */
  const savedValue = useCallback(
    (id: number) => changes[id]?.original ?? rows.find((r) => r.id === id)?.value ?? '',
    [changes, rows],
  );

  const change = useCallback(
    (row: Row, text: string) => {
      const value = tidy(text, max);
      const original = savedValue(row.id);
      setChanges((all) => {
        const next = { ...all };
        if (value === original) delete next[row.id];
        else next[row.id] = { value, original, fullname: row.fullname };
        return next;
      });
      setErrors((all) => {
        const next = { ...all };
        const parsed = parseMarkValue(value, max);
        if (parsed.ok) delete next[row.id];
        else next[row.id] = parsed.message;
        return next;
      });
    },
    [savedValue, max],
  );

  /** Absent pressed: on, or again back to what the server has (a saved mark is not cleared by a slip). */
  const toggleAbsent = (row: Row) => {
    const original = savedValue(row.id);
    const back = original === ABSENT ? '' : original;
    change(row, row.value === ABSENT ? back : ABSENT);
  };

  /**
   * The keys of a spreadsheet on a cell that is not being typed in (the grid's own take
   * Enter, arrows, and Escape while typing): Escape gives a marks cell its saved value
   * back, even after Enter; Space presses Absent, as it would the button.
   */
  const onCellKeyDown: GridEventListener<'cellKeyDown'> = (params, event) => {
    if (params.cellMode !== 'view') return;
    const row = params.row as Row;
    if (event.key === 'Escape' && params.field === 'value' && changes[row.id]) {
      change(row, savedValue(row.id));
      event.defaultMuiPrevented = true;
    } else if (event.key === ' ' && params.field === 'absent') {
      event.preventDefault();
      event.defaultMuiPrevented = true;
      toggleAbsent(row);
    }
  };

  const processRowUpdate = useCallback(
    (newRow: Row, oldRow: Row): Row => {
      const text = String(newRow.value ?? '');
      if (text !== oldRow.value) change(oldRow, text);
      return { ...newRow, value: tidy(text, max) };
    },
    [change, max],
  );

  // A cell being typed in counts as a change until it is closed: Back before Enter must not
  // lose what is in it.
  const pending = Object.keys(changes).length + (typingIn !== null && !changes[typingIn] ? 1 : 0);
  useEffect(() => {
    onUnsavedChange(pending);
    return () => onUnsavedChange(0);
  }, [pending, onUnsavedChange]);

  const waiting = pending > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      // Not for a page left open: the session then ends as any idle one does.
      if (attended()) void callAsAdmin('getAdminProfile', {});
    }, KEEP_SESSION_MS);
    return () => window.clearInterval(timer);
  }, [waiting, callAsAdmin]);

  /** Marks an import has just saved: a change typed before it for the same student is no longer to be saved. */
  const imported = (ids: readonly number[]) => {
    setChanges((all) => withoutIds(all, ids));
    setErrors((all) => withoutIds(all, ids));
  };
  /** The rows the server or the cell refused, with why. */
  const problems = Object.entries(errors);
  const listedProblems = phone ? problems : problems.filter(([id]) => !rows.some((r) => r.id === Number(id)));

  const save = async () => {
    const sent = changes;
    // A cell still open when Save is pressed without a pointer (a screen reader's activation):
    // closed, and so taken, for the next press; a cell opened and left as it was: nothing to send.
    if (typingIn !== null) apiRef.current?.stopCellEditMode({ id: typingIn, field: 'value' });
    if (Object.keys(sent).length === 0) return;
    setSaving(true);
    // The grid stays editable while the request runs: what is typed meanwhile stays unsaved.
    // (A cell still open is closed, and so taken, by the click on Save.)
    const result = await callAsAdmin('saveMarks', {
      objectId: assessment.objectId,
      // With what the grid showed as saved: a mark someone else saves meanwhile is not overwritten.
      rows: Object.entries(sent).map(([id, c]) => ({ id: Number(id), value: c.value, before: c.original })),
    });
    setSaving(false);
    if (!result.ok || !result.data) {
      if (!result.sessionEnded) notify.error(errorText(result, 'The marks could not be saved. Please try again.'));
      return;
    }
    const refused = new Map(result.data.errors.map((e) => [e.id, e.message]));
    // Marks someone else saved since the grid showed them: what the server has now.
    const storedNow = new Map(result.data.errors.flatMap((e) => (e.now === undefined ? [] : [[e.id, e.now]])));
    setChanges((all) => {
      const next: typeof all = {};
      for (const [key, c] of Object.entries(all)) {
        const id = Number(key);
        const saved = sent[id] && !refused.has(id) ? sent[id].value : undefined;
        const now = storedNow.get(id);
        // Refused, not sent, or typed again since: still unsaved (against what the server now has).
        if (now !== undefined) next[id] = { ...c, original: now };
        else if (saved === undefined) next[id] = c;
        else if (c.value !== saved) next[id] = { ...c, original: saved };
      }
      return next;
    });
    // The rows as the server has them now, before the reload's answer: a change typed at once
    // is checked against them (the value saved, or the one someone else saved).
    const stored = new Map(
      Object.entries(sent).flatMap(([key, c]) => (refused.has(Number(key)) ? [] : [[Number(key), c.value]])),
    );
    for (const [id, now] of storedNow) stored.set(id, now);
    setRows((all) => all.map((row) => (stored.has(row.id) ? { ...row, value: stored.get(row.id)! } : row)));
    setErrors((all) => {
      const next = { ...all };
      for (const key of Object.keys(sent)) delete next[Number(key)];
      for (const [id, message] of refused) next[id] = message;
      return next;
    });
    if (refused.size) notify.error(`${result.data.saved} saved; ${MarksText.needAttention(refused.size)}`);
    else notify.success(`Saved ${MarksText.marks(result.data.saved)}`);
    setReload((n) => n + 1);
    onSaved();
  };

  /** Why a listed student is not an ordinary one of the batch: deactivated, or moved to another batch since. */
  const noteOf = (row: Row, short: boolean) =>
    row.status === 'deactivated'
      ? short
        ? MarksText.deactivatedShort
        : MarksText.deactivated
      : isInBatch(assessment, row)
        ? null
        : MarksText.movedTo(`${gradeLabel(row.grade)} ${row.board}`);

  const columns: GridColDef<Row>[] = [
    // On a phone the id, the name and the marks cell fit the screen (320 px too: the name takes
    // what is left); the rest scrolls, and "absent" can be typed in the marks cell.
    { field: 'id', headerName: phone ? 'ID' : 'Enrollment ID', width: phone ? 56 : 120, sortable: false },
    {
      field: 'fullname',
      headerName: 'Student',
      flex: 1,
      minWidth: phone ? 90 : 150,
      sortable: false,
      // On a phone a row's note goes under the name: the "Problem" column is off the screen.
      renderCell: (params) => {
        const note = phone && noteOf(params.row, true);
        return note ? (
          <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', height: '100%', minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {params.row.fullname}
            </Typography>
            {/* Whole, on two lines at most beside a narrow name column ("Now in 6th ICSE" at 320 px). */}
            <Typography variant="caption" color="text.secondary" sx={{ lineHeight: 1.2, whiteSpace: 'normal' }}>
              {note}
            </Typography>
          </Box>
        ) : (
          params.row.fullname
        );
      },
    },
    {
      field: 'value',
      headerName: phone ? `Marks /${max}` : `Marks (of ${max})`,
      width: phone ? 96 : 120,
      editable: true,
      sortable: false,
      cellClassName: (params) => (errors[params.row.id] ? 'mark-error' : changes[params.row.id] ? 'mark-changed' : ''),
    },
    {
      field: 'absent',
      headerName: 'Absent',
      width: 110,
      sortable: false,
      renderCell: (params) => (
        <Button
          size="small"
          variant={params.row.value === ABSENT ? 'contained' : 'outlined'}
          aria-pressed={params.row.value === ABSENT}
          aria-label={`${params.row.fullname} absent`}
          onClick={() => toggleAbsent(params.row)}
        >
          Absent
        </Button>
      ),
    },
    { field: 'board', headerName: 'Board', width: 90, sortable: false },
    {
      field: 'problem',
      headerName: 'Problem',
      flex: 1,
      minWidth: 200,
      sortable: false,
      renderCell: (params) => {
        const error = errors[params.row.id];
        // Deactivated, or moved to another batch, since: the marks given here stay theirs.
        const note = noteOf(params.row, false);
        return error || note ? (
          <Typography variant="body2" color={error ? 'error' : 'text.secondary'} sx={CELL_TEXT}>
            {error ?? note}
          </Typography>
        ) : null;
      },
    },
  ];

  return (
    <Box>
      <UnsavedChangesPrompt when={pending > 0} message={MarksText.unsaved(pending)} />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <TextField
          label="Search students"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Name or enrollment id"
          sx={{ maxWidth: { sm: 320 } }}
          size="small"
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button variant="outlined" onClick={() => setImporting(true)}>
            Import CSV
          </Button>
          {/* Inert while saving and with nothing to save. */}
          <InertButton variant="contained" onClick={() => void save()} unavailable={pending === 0 || saving}>
            {saving ? 'Saving...' : pending ? `Save ${MarksText.changes(pending)}` : 'Saved'}
          </InertButton>
        </Stack>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Type marks from 0 to {max} in steps of 0.5, or “absent”; Enter moves down, Escape undoes the cell.
      </Typography>
      {problems.length > 0 && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {MarksText.needAttention(problems.length)}
          {listedProblems.length > 0 ? (
            // Rows whose Problem cell is not on screen: on a phone every one (the grid shows its
            // first columns only), elsewhere those saved from another page or search of the grid.
            <>
              :
              <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                {listedProblems.slice(0, PROBLEMS_LISTED).map(([id, message]) => (
                  <li key={id}>
                    {changes[Number(id)]?.fullname ??
                      rows.find((r) => r.id === Number(id))?.fullname ??
                      'Enrollment ID'}{' '}
                    ({id}): {message}
                  </li>
                ))}
                {problems.length > Math.min(listedProblems.length, PROBLEMS_LISTED) && (
                  <li>
                    and {problems.length - Math.min(listedProblems.length, PROBLEMS_LISTED)} more (see “Problem”
                    {phone ? '' : ', or search an enrollment id'})
                  </li>
                )}
              </Box>
            </>
          ) : (
            ': see “Problem”.'
          )}
        </Alert>
      )}
      {(failed || retrying) && (
        <Box sx={{ mb: 1 }}>
          <LoadStatus
            failed={failed}
            loadingText="Loading students ..."
            failedText={rows.length ? MarksText.studentsNotLoadedShowingBefore : MarksText.studentsNotLoaded}
            onRetry={() => {
              setRetrying(true);
              setReload((n) => n + 1);
            }}
          />
        </Box>
      )}
      {/* The grid grows with its rows up to the box's height (a short batch leaves no empty space), then scrolls. */}
      <Box
        onPointerDownCapture={(event) => (pressedWith.current = event.pointerType)}
        sx={{
          display: 'flex',
          flexDirection: 'column',
          maxHeight: { xs: 600, md: 'max(480px, calc(100vh - 240px))' },
          minHeight: 220,
          minWidth: 0,
          '& .mark-changed': { bgcolor: 'warning.light', fontWeight: 700 },
          '& .mark-error': { bgcolor: 'error.light', color: 'error.contrastText', fontWeight: 700 },
        }}
      >
        <DataGrid
          rows={shown}
          columns={columns}
          getRowId={(row) => row.id}
          rowCount={total}
          loading={loading}
          paginationMode="server"
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={PAGE_SIZES}
          apiRef={apiRef}
          editMode="cell"
          onCellEditStart={(params) => params.field === 'value' && setTypingIn(Number(params.id))}
          onCellEditStop={() => setTypingIn(null)}
          // A tap on a phone opens the marks cell (and its keyboard), which a click on a
          // computer only focuses: a tap cannot type to start as a keyboard can.
          onCellClick={(params) => {
            if (pressedWith.current !== 'touch' || params.field !== 'value' || params.cellMode !== 'view') return;
            apiRef.current?.startCellEditMode({ id: params.id, field: 'value' });
            // Opened here, not by the grid's own keys: counted as being typed in all the same.
            setTypingIn(Number(params.id));
          }}
          processRowUpdate={processRowUpdate}
          onCellKeyDown={onCellKeyDown}
          onProcessRowUpdateError={() => notify.error('That value could not be taken')}
          disableColumnMenu
          disableRowSelectionOnClick
          slots={{ loadingOverlay: GridLoadingOverlay }}
          localeText={{
            noRowsLabel: failed
              ? MarksText.studentsNotLoaded
              : query
                ? 'No student of this batch matches the search'
                : 'This batch has no students yet',
          }}
          aria-label={`Marks for ${assessment.title}`}
          sx={{
            // The focused cell as plain as the rest of the site's focus rings (3 px), on the coloured
            // cells too. On the grid itself: from the box around it, the grid's own 1 px ring wins.
            '& .MuiDataGrid-cell:focus, & .MuiDataGrid-cell:focus-within': {
              outline: '3px solid',
              outlineColor: 'primary.main',
              outlineOffset: '-3px',
            },
          }}
        />
      </Box>
      {/* Said while the grid loads, and what a search found (the grid itself is silent). */}
      <Typography role="status" className="visually-hidden">
        {loading
          ? 'Loading students ...'
          : failed
            ? ''
            : query
              ? total === 0
                ? 'No student of this batch matches the search'
                : `${total} ${total === 1 ? 'student' : 'students'} found`
              : ''}
      </Typography>
      {importing && (
        <CsvImportDialog
          assessment={assessment}
          onClose={() => setImporting(false)}
          onSaved={(ids) => {
            setImporting(false);
            imported(ids);
            setReload((n) => n + 1);
            onSaved();
          }}
        />
      )}
    </Box>
  );
}
