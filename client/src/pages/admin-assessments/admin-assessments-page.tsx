import AddIcon from '@mui/icons-material/Add';
import { ALL_BOARDS, BOARDS_OR_ALL, type BoardOrAll } from '@tc/domain/constants';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { MarksText, type AssessmentStatus } from '@tc/domain/assessments';
import type { Grade } from '@tc/domain/constants';
import { batchLabel } from '@tc/domain/timetable';
import { isoToDisplayDate } from '@tc/domain/dates';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { AdminPage } from '../../components/admin-page.tsx';
import { FilterSelect, GRADE_CHOICES, FiltersRow } from '../../components/filters-row.tsx';
import { LoadStatus } from '../../components/load-status.tsx';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useCentreZone } from '../../lib/centre-zone.ts';
import { useApi } from '../../lib/use-api.ts';
import { AssessmentDialog, type Assessment } from './assessment-dialog.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { MarksGrid } from './marks-grid.tsx';
import { focusAfterDialog, focusIfReloadTakesIt } from '../../lib/focus-field.ts';

const PAGE_SIZE = 25;

type Pending = { kind: 'publish' | 'delete'; assessment: Assessment } | null;

const BOARD_FILTERS = [
  ['', 'Any board'],
  ...BOARDS_OR_ALL.map((b) => [b, b === ALL_BOARDS ? 'For all boards' : b] as const),
] as const;
const STATUS_FILTERS = [
  ['', 'Drafts and published'],
  ['draft', 'Drafts'],
  ['published', 'Published'],
] as const;
const FILTER_WIDTH = { width: { md: 200 } } as const;

const NO_ASSESSMENTS = 'No assessments yet: “New assessment” makes the first one.';
const NO_MATCH = 'No assessment matches these filters.';

/**
 * "12.4 (7 students)": the batch average (to one decimal from the server) and how many students
 * it counts; with ", students see 11.9" while the average students see is an earlier one (it
 * moves once 5 students' marks have changed, docs/decisions/0018-progress-reads.md).
 */
const averageOf = (a: Assessment) =>
  `${a.average ?? 0} (${a.markedCount} ${a.markedCount === 1 ? 'student' : 'students'})` +
  (a.shownAverage !== undefined && a.shownAverage !== a.average ? `, students see ${a.shownAverage}` : '');

function StatusChip({ assessment }: { assessment: Assessment }) {
  const published = assessment.status === 'published';
  return <Chip size="small" label={published ? 'Published' : 'Draft'} color={published ? 'success' : 'default'} />;
}

const batchOf = (a: Assessment) => batchLabel(a.grade, a.board);

export default function AdminAssessmentsPage() {
  const { token, call: callAsAdmin } = useApi('admin');
  // Asked as the page opens: a new assessment's date is today at the centre from the first dialog on.
  useCentreZone();
  // On a phone the list is cards, each with its actions, rather than a table that scrolls sideways.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('marks');
  const [items, setItems] = useState<Assessment[] | null>(null);
  // The assessment whose marks are open, kept while the list turns its pages.
  const [opened, setOpened] = useState<Assessment | null>(null);
  // The one whose Marks was pressed, open once the page's address says so (unsaved marks of
  // the open one may keep the page where it is: "Stay").
  const [opening, setOpening] = useState<Assessment | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  // The list's filters ('' for all), on the server; a change goes back to the first page.
  const [filters, setFilters] = useState({ grade: '', board: '', status: '' });
  const filtered = Boolean(filters.grade || filters.board || filters.status);
  const filter = (name: keyof typeof filters, value: string) => {
    setFilters((current) => ({ ...current, [name]: value }));
    setPage(0);
  };
  const [reload, setReload] = useState(0);
  const [dialog, setDialog] = useState<{ editing: Assessment | null } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  /** Cells of the open marks grid typed and not saved yet (the publish question names them). */
  const [unsavedMarks, setUnsavedMarks] = useState(0);
  const [busy, setBusy] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  // Marks opened from the list or a new assessment: the panel opens below the list, so it
  // is brought into view and takes the focus (its heading), or the click seems to do nothing.
  const reveal = useRef(false);
  const [reveals, setReveals] = useState(0);
  const marksHeading = useRef<HTMLHeadingElement>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    const query = {
      skip: page * PAGE_SIZE,
      limit: PAGE_SIZE,
      ...(filters.grade ? { grade: Number(filters.grade) as Grade } : {}),
      ...(filters.board ? { board: filters.board as BoardOrAll } : {}),
      ...(filters.status ? { status: filters.status as AssessmentStatus } : {}),
    };
    void callAsAdmin('listAssessments', query).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) {
        // An edit that took its row out of the filters or moved it (a new date) took its Edit
        // button (which had the focus back from the dialog) away with it.
        focusIfReloadTakesIt(() => newButton.current?.focus());
        const count = Number(result.headers?.get('X-Total-Count') ?? result.data.length);
        // A page the list no longer reaches (its last row deleted, or published out of the
        // Drafts filter): the last page that has rows instead.
        // (Before this page at least: the count is its own query, and may not have seen the rows go.)
        if (result.data.length === 0 && page > 0 && count > 0) {
          setPage(Math.min(page - 1, Math.ceil(count / PAGE_SIZE) - 1));
          return;
        }
        setItems(result.data);
        setTotal(count);
        setLoadFailed(false);
        // The open assessment as it is now (its average after a save), when it is on this page.
        const fresh = result.data;
        setOpened((current) => fresh.find((a) => a.objectId === current?.objectId) ?? current);
      } else if (!result.sessionEnded) {
        notify.error(errorText(result, UiMessage.errorLoadingData));
        setLoadFailed(true);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token, callAsAdmin, page, filters, reload]);

  // A draft deleted here: its panel goes at once, its unsaved marks with it (the question
  // said so), and then its address (the grid's leave prompt has gone with the grid).
  const [deletedId, setDeletedId] = useState<string | null>(null);
  useEffect(() => {
    if (deletedId && deletedId === selectedId) setParams({}, { replace: true });
  }, [deletedId, selectedId, setParams]);

  // An assessment opened from the list or a link is kept while another page or filter of the
  // list leaves it out: its panel, and the marks typed there, stay.
  const listed =
    selectedId === deletedId
      ? undefined
      : (items?.find((a) => a.objectId === selectedId) ?? (opening?.objectId === selectedId ? opening : undefined));
  if (listed && opened?.objectId !== listed.objectId) setOpened(listed);

  // The assessment of a link or a reload (?marks=id) that is not on this page of the
  // list: read on its own. One that is gone says so and closes.
  const missingId =
    selectedId &&
    selectedId !== deletedId &&
    items &&
    !items.some((a) => a.objectId === selectedId) &&
    opened?.objectId !== selectedId
      ? selectedId
      : null;
  useEffect(() => {
    if (!missingId) return;
    let cancelled = false;
    void callAsAdmin('getAssessment', { objectId: missingId }).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data) setOpened(result.data);
      else if (!result.sessionEnded) {
        notify.error(errorText(result, UiMessage.errorLoadingData));
        setParams({}, { replace: true });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [missingId, callAsAdmin, setParams]);

  const shownId = selectedId && (items?.some((a) => a.objectId === selectedId) || opened?.objectId === selectedId);
  useEffect(() => {
    // Once the panel is there (the URL's change may render after the click's).
    if (!reveal.current || !shownId || !marksHeading.current) return;
    reveal.current = false;
    marksHeading.current.scrollIntoView({ block: 'start' });
    marksHeading.current.focus({ preventScroll: true });
  }, [shownId, selectedId, reveals]);

  if (!token) return <Navigate to={Route.adminLogin} replace />;

  const selected =
    selectedId && selectedId !== deletedId
      ? (items?.find((a) => a.objectId === selectedId) ?? (opened?.objectId === selectedId ? opened : null))
      : null;
  const refresh = () => setReload((n) => n + 1);
  // What the list shows instead of rows: loading or its failure, or why it is empty.
  const listStatus = !items ? (
    <LoadStatus
      failed={loadFailed}
      failedText={UiMessage.errorLoadingData}
      onRetry={() => {
        setLoadFailed(false);
        refresh();
      }}
    />
  ) : items.length === 0 ? (
    filtered ? (
      NO_MATCH
    ) : (
      NO_ASSESSMENTS
    )
  ) : null;
  // Marks saved in the panel move its average: the list's reload shows it for an assessment on
  // the list's page; one kept from another page or filter is read again on its own.
  const marksSaved = () => {
    refresh();
    const id = selected?.objectId;
    if (!id || items?.some((a) => a.objectId === id)) return;
    void callAsAdmin('getAssessment', { objectId: id }).then((result) => {
      const fresh = result.ok ? result.data : undefined;
      if (fresh) setOpened((current) => (current?.objectId === id ? fresh : current));
    });
  };
  const openMarks = (assessment: Assessment) => {
    setOpening(assessment);
    setParams({ marks: assessment.objectId });
    reveal.current = true;
    setReveals((n) => n + 1);
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    const { kind, assessment } = pending;
    const result =
      kind === 'publish'
        ? await callAsAdmin('publishAssessment', { objectId: assessment.objectId })
        : await callAsAdmin('deleteAssessment', { objectId: assessment.objectId });
    setBusy(false);
    setPending(null);
    if (result.ok) {
      notify.success(kind === 'publish' ? `Published “${assessment.title}”` : `Deleted “${assessment.title}”`);
      // A deleted assessment's panel closes, and its address with it.
      if (kind === 'delete') {
        setDeletedId(assessment.objectId);
        if (opened?.objectId === assessment.objectId) setOpened(null);
        if (opening?.objectId === assessment.objectId) setOpening(null);
      }
      // The open panel says "published" at once, even when the list's filter (Drafts) lets it go.
      if (kind === 'publish' && opened?.objectId === assessment.objectId) {
        setOpened({ ...opened, status: 'published' });
      }
      // Its Publish or Delete button has gone (or goes with the list's reload): the focus goes to
      // its open marks, else to New assessment, which stays.
      focusAfterDialog(() =>
        kind === 'publish' && opened?.objectId === assessment.objectId ? marksHeading.current : newButton.current,
      );
      refresh();
    } else if (!result.sessionEnded) notify.error(errorText(result, 'That did not work. Please try again.'));
  };

  const actionsOf = (a: Assessment) => (
    // In the table's row the actions stay on one line (a wrapped Delete read as another row's).
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: phone ? 'wrap' : 'nowrap', rowGap: 0.5 }}>
      <Button size="small" onClick={() => openMarks(a)} aria-label={`Marks of ${a.title}`}>
        Marks
      </Button>
      <Button size="small" onClick={() => setDialog({ editing: a })} aria-label={`Edit ${a.title}`}>
        Edit
      </Button>
      {a.status === 'draft' && (
        <>
          <Button
            size="small"
            onClick={() => setPending({ kind: 'publish', assessment: a })}
            aria-label={`Publish ${a.title}`}
          >
            Publish
          </Button>
          <Button
            size="small"
            color="error"
            onClick={() => setPending({ kind: 'delete', assessment: a })}
            aria-label={`Delete ${a.title}`}
          >
            Delete
          </Button>
        </>
      )}
    </Stack>
  );

  return (
    <AdminPage
      title="Assessments"
      heading="Assessments"
      actions={
        <Button
          ref={newButton}
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setDialog({ editing: null })}
        >
          New assessment
        </Button>
      }
    >
      <Card sx={{ p: { xs: 1, sm: 2 }, minWidth: 0, mb: 3 }}>
        <FiltersRow>
          <FilterSelect
            label="Grade"
            value={filters.grade}
            onChange={(value) => filter('grade', value)}
            options={GRADE_CHOICES}
            sx={FILTER_WIDTH}
          />
          <FilterSelect
            label="Board"
            value={filters.board}
            onChange={(value) => filter('board', value)}
            options={BOARD_FILTERS}
            sx={FILTER_WIDTH}
          />
          <FilterSelect
            label="Status"
            value={filters.status}
            onChange={(value) => filter('status', value)}
            options={STATUS_FILTERS}
            sx={FILTER_WIDTH}
          />
        </FiltersRow>
        {phone ? (
          <Stack component="ul" aria-label="Assessments" spacing={1.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {listStatus && <Typography component="li">{listStatus}</Typography>}
            {items?.map((a) => (
              <Card
                component="li"
                key={a.objectId}
                variant="outlined"
                sx={{ p: 1.5, bgcolor: a.objectId === selectedId ? 'action.selected' : undefined }}
              >
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
                  <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                    {a.subject}: {a.title}
                  </Typography>
                  <StatusChip assessment={a} />
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {batchOf(a)} · {isoToDisplayDate(a.date)} · out of {a.maxMarks}
                  {a.average !== undefined && ` · average ${averageOf(a)}`}
                </Typography>
                <Box sx={{ mt: 1, mx: -0.5 }}>{actionsOf(a)}</Box>
              </Card>
            ))}
          </Stack>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Assessments">
              <TableHead>
                <TableRow>
                  <TableCell>Date</TableCell>
                  <TableCell>Batch</TableCell>
                  <TableCell>Subject</TableCell>
                  <TableCell>Title</TableCell>
                  <TableCell align="right">Max</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right">Average</TableCell>
                  <TableCell>Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {listStatus && (
                  <TableRow>
                    <TableCell colSpan={8}>{listStatus}</TableCell>
                  </TableRow>
                )}
                {items?.map((a) => (
                  <TableRow key={a.objectId} selected={a.objectId === selectedId}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{isoToDisplayDate(a.date)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{batchOf(a)}</TableCell>
                    <TableCell>{a.subject}</TableCell>
                    <TableCell>{a.title}</TableCell>
                    <TableCell align="right">{a.maxMarks}</TableCell>
                    <TableCell>
                      <StatusChip assessment={a} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {a.average !== undefined ? averageOf(a) : '—'}
                    </TableCell>
                    <TableCell>{actionsOf(a)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <TablePagination
          component="div"
          count={total}
          page={page}
          onPageChange={(_e, next) => setPage(next)}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
        />
      </Card>

      {selected && (
        <Card component="section" aria-labelledby="marks-heading" sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }}>
          <Typography
            id="marks-heading"
            ref={marksHeading}
            tabIndex={-1}
            variant="h2"
            sx={{ fontSize: '1.35rem', mb: 0.5, outline: 'none' }}
          >
            Marks: {selected.subject}, {selected.title}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {batchOf(selected)} · {isoToDisplayDate(selected.date)} ·{' '}
            {selected.status === 'published'
              ? "Published: a student's first marks are mailed to them, corrections send no second mail"
              : 'Draft'}
          </Typography>
          {/* Where the marks are entered, what they come to, and what the students see of it. */}
          {selected.average !== undefined && (
            <Typography color="text.secondary" sx={{ mt: -1.5, mb: 2 }}>
              Average {averageOf(selected)}
            </Typography>
          )}
          {/* A new batch (an edit of a draft without marks) is another list of students. */}
          <MarksGrid
            key={`${selected.objectId} ${selected.grade} ${selected.board}`}
            assessment={selected}
            onSaved={marksSaved}
            onUnsavedChange={setUnsavedMarks}
          />
        </Card>
      )}

      {dialog && (
        <AssessmentDialog
          editing={dialog.editing}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            setDialog(null);
            // A new one opens its marks; an edit of the open one shows its new details (kept
            // as the open one too: an edit may take it off the list's page, a new grade say).
            if (!dialog.editing || selectedId === saved.objectId) openMarks(saved);
            if (opened?.objectId === saved.objectId) setOpened(saved);
            refresh();
          }}
        />
      )}

      <ConfirmDialog
        open={Boolean(pending)}
        title={pending?.kind === 'publish' ? 'Publish this assessment?' : 'Delete this draft?'}
        text={
          pending?.kind === 'publish'
            ? MarksText.publish(
                pending.assessment.title,
                // The list's latest answer: a save just made reloads it while the question is open.
                (items?.find((a) => a.objectId === pending.assessment.objectId) ?? pending.assessment).markedCount,
                pending.assessment.objectId === selected?.objectId ? unsavedMarks : 0,
              )
            : `“${pending?.assessment.title}” and its marks will be deleted.`
        }
        action={pending?.kind === 'publish' ? 'Publish' : 'Delete'}
        destructive={pending?.kind === 'delete'}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </AdminPage>
  );
}
