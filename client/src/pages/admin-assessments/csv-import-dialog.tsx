// The same MUI parts as the assessments page: an import list, not copied logic.
/* jscpd:ignore-start */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
/* jscpd:ignore-end */
import { useRef, useState } from 'react';
import type { ResponseOf } from '@tc/domain/api/contract';
import { MarksText } from '@tc/domain/assessments';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useApi, type CallAs } from '../../lib/use-api.ts';
import type { Assessment } from './assessment-dialog.tsx';
import { readCsvFile } from './read-csv-file.ts';
import { closeOnEscape } from '../../lib/form-dialog.ts';
import { InertButton } from '../../components/inert-button.tsx';

type Preview = ResponseOf<'previewMarksCsv'>;
const SHOWN_ROWS = 200;
const TEMPLATE_PAGE = 500;

/**
 * The template, made in the browser: a header and one line per student of the batch,
 * marks left empty. Every page of the batch or nothing: a template that silently
 * missed students would import as if they had none.
 */
async function downloadTemplate(callAsAdmin: CallAs, assessment: Assessment): Promise<void> {
  const ids: number[] = [];
  for (let skip = 0; ; skip += TEMPLATE_PAGE) {
    const page = await callAsAdmin('listAssessmentMarks', {
      objectId: assessment.objectId,
      skip,
      limit: TEMPLATE_PAGE,
    });
    if (!page.ok || !page.data) {
      if (!page.sessionEnded) notify.error(errorText(page, 'The template could not be made. Please try again.'));
      return;
    }
    ids.push(...page.data.map((row) => row.id));
    if (page.data.length < TEMPLATE_PAGE) break;
  }
  const csv = ['enrollment id,marks', ...ids.map((id) => `${id},`)].join('\r\n') + '\r\n';
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `marks-${assessment.subject}-${assessment.title}.csv`.replace(/[^\w.-]+/g, '-');
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Props {
  assessment: Assessment;
  onClose: () => void;
  /** The file's marks are saved: the enrollment ids whose marks it set (not those it left blank). */
  onSaved: (ids: number[]) => void;
}

/** CSV import: choose a file, see every bad row with its error, save only when all rows are good. */
export function CsvImportDialog({ assessment, onClose, onSaved }: Props) {
  const { call: callAsAdmin } = useApi('admin');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [work, setWork] = useState<'checking' | 'saving' | 'template' | null>(null);
  // A file that is no CSV, too large or unreadable: said before anything is sent.
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  // The file chosen last: the check of a file chosen before it is not shown.
  const latest = useRef(0);
  // Its name, so that the preview is known to be of the file meant.
  const [fileName, setFileName] = useState<string | null>(null);

  const choose = async (file: File | undefined) => {
    const turn = ++latest.current;
    setPreview(null);
    setCsv(null);
    setFileProblem(null);
    setFileName(file?.name ?? null);
    if (!file) return setWork(null);
    setWork('checking');
    const read = await readCsvFile(file);
    if (turn !== latest.current) return;
    if ('problem' in read) {
      setWork(null);
      setFileProblem(read.problem);
      return;
    }
    const text = read.text;
    const result = await callAsAdmin('previewMarksCsv', { objectId: assessment.objectId, csv: text });
    if (turn !== latest.current) return;
    setWork(null);
    if (result.ok && result.data) {
      setCsv(text);
      setPreview(result.data);
    } else if (!result.sessionEnded) notify.error(errorText(result, 'The file could not be read. Please try again.'));
  };

  const save = async () => {
    if (!csv) return;
    setWork('saving');
    const result = await callAsAdmin('importMarksCsv', { objectId: assessment.objectId, csv });
    setWork(null);
    if (result.ok && result.data) {
      notify.success(`Imported ${MarksText.marks(result.data.saved)}`);
      onSaved(preview?.rows.flatMap((row) => (row.id !== undefined && !row.unchanged ? [row.id] : [])) ?? []);
    } else if (!result.sessionEnded) {
      notify.error(errorText(result, 'The marks could not be saved. Please try again.'));
      // Rows good at the preview may not be now (a student moved, the maximum lowered): the
      // same file is checked again, so that each bad row shows, as the refusal says.
      const turn = latest.current;
      setWork('checking');
      const again = await callAsAdmin('previewMarksCsv', { objectId: assessment.objectId, csv });
      if (turn !== latest.current) return;
      setWork(null);
      if (again.ok && again.data) setPreview(again.data);
    }
  };

  const template = async () => {
    setWork('template');
    await downloadTemplate(callAsAdmin, assessment);
    setWork(null);
  };

  const bad = preview?.rows.filter((row) => row.error) ?? [];
  const toSave = preview && bad.length === 0 ? preview.rows.length - preview.unchangedCount : 0;

  return (
    <Dialog
      open
      onClose={closeOnEscape(onClose, work === 'saving')}
      aria-labelledby="csv-dialog-title"
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id="csv-dialog-title">Import marks from CSV</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            One line per student: <code>enrollment id,marks</code>, with marks from 0 to {assessment.maxMarks} or{' '}
            <code>absent</code>; a student whose marks are left blank keeps the marks they have. Nothing is saved while
            any row has an error.
          </DialogContentText>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <InertButton variant="outlined" onClick={() => void template()} unavailable={work === 'template'}>
              {work === 'template' ? 'Preparing template...' : 'Download template'}
            </InertButton>
            <Button variant="outlined" component="label" disabled={work === 'saving'}>
              {fileName ? 'Choose another file' : 'Choose CSV file'}
              <input
                type="file"
                accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
                aria-label="CSV file"
                hidden
                onChange={(e) => {
                  void choose(e.target.files?.[0]);
                  // The same file, fixed and chosen again, must be read again.
                  e.target.value = '';
                }}
              />
            </Button>
          </Stack>
          {fileName && (
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              File: <strong>{fileName}</strong>
            </Typography>
          )}
          {work === 'checking' && <Alert severity="info">Checking...</Alert>}
          {fileProblem && <Alert severity="error">{fileProblem}</Alert>}
          {preview && bad.length === 0 && (
            <>
              <Alert severity="success">
                {MarksText.allGood(preview.rows.length)}
                {preview.unchangedCount > 0 && ` ${MarksText.leftAsTheyAre(preview.unchangedCount)}`} Check the names
                before saving.
              </Alert>
              <PreviewRows rows={preview.rows} label="Rows to save" phone={phone} />
            </>
          )}
          {preview && bad.length > 0 && (
            <>
              <Alert severity="error">{MarksText.rowsWithErrors(preview.errorCount, preview.rows.length)}</Alert>
              <PreviewRows rows={bad} label="Rows with errors" phone={phone} />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <InertButton onClick={onClose} unavailable={work === 'saving'}>
          Cancel
        </InertButton>
        <InertButton variant="contained" onClick={() => void save()} unavailable={work !== null || toSave === 0}>
          {work === 'saving' ? 'Saving...' : toSave > 0 ? `Save ${MarksText.marks(toSave)}` : 'Save'}
        </InertButton>
      </DialogActions>
    </Dialog>
  );
}

type PreviewRow = Preview['rows'][number];

/** What a row's marks cell will do: its marks, absent, or nothing (a blank cell). */
function marksOf(row: PreviewRow): string {
  if (row.unchanged) return 'left as it is';
  return row.value;
}

/**
 * The rows of a preview, so that the admin can check them before saving: each with its
 * student's name (a mistyped enrollment id shows another child's) or its error. On a phone a
 * list, each row in full: four columns leave the error a sliver.
 */
function PreviewRows({ rows, label, phone }: { rows: PreviewRow[]; label: string; phone: boolean }) {
  const errors = rows.some((row) => row.error);
  const shown = rows.slice(0, SHOWN_ROWS);
  const more = rows.length - shown.length;
  return (
    <>
      {phone ? (
        // Focusable, so that a keyboard can scroll the rows below the box's edge (WCAG 2.1.1).
        <Stack
          component="ol"
          aria-label={label}
          tabIndex={0}
          spacing={1}
          sx={{ m: 0, p: 0, listStyle: 'none', maxHeight: 320, overflowY: 'auto' }}
        >
          {shown.map((row) => (
            <Box component="li" key={row.line} sx={{ borderBottom: 1, borderColor: 'divider', pb: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 700 }}>
                Line {row.line}
                {row.id !== undefined ? ` · ${row.id}` : ''}
                {row.value || row.unchanged ? ` · ${marksOf(row)}` : ''}
              </Typography>
              {row.fullname && <Typography variant="body2">{row.fullname}</Typography>}
              {row.error && (
                <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
                  {row.error}
                </Typography>
              )}
            </Box>
          ))}
        </Stack>
      ) : (
        <TableContainer role="region" aria-label={label} tabIndex={0} sx={{ maxHeight: 320 }}>
          <Table size="small" stickyHeader aria-label={label}>
            <TableHead>
              <TableRow>
                <TableCell>Line</TableCell>
                <TableCell>Enrollment ID</TableCell>
                <TableCell>Student</TableCell>
                <TableCell>Marks</TableCell>
                {errors && <TableCell>Error</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((row) => (
                <TableRow key={row.line}>
                  <TableCell>{row.line}</TableCell>
                  <TableCell>{row.id ?? ''}</TableCell>
                  <TableCell>{row.fullname ?? ''}</TableCell>
                  <TableCell>{marksOf(row)}</TableCell>
                  {errors && <TableCell sx={{ color: 'error.main' }}>{row.error}</TableCell>}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {more > 0 && (
        <Typography variant="body2" color="text.secondary">
          The first {SHOWN_ROWS} rows are shown; {more === 1 ? '1 more is' : `${more} more are`} not.
        </Typography>
      )}
    </>
  );
}
