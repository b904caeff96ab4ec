// The same MUI parts as the assessments page: an import list, not copied logic.
/* jscpd:ignore-start */
import Alert from '@mui/material/Alert';
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
/* jscpd:ignore-end */
import { useState } from 'react';
import type { ResponseOf } from '@tc/domain/api/contract';
import { marksCount } from '@tc/domain/assessments';
import { call } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import type { Assessment } from './assessment-dialog.tsx';

type Preview = ResponseOf<'previewMarksCsv'>;
const SHOWN_ROWS = 200;
const TEMPLATE_PAGE = 500;

/** The template, made in the browser: a header and one line per student of the batch, marks left empty. */
async function downloadTemplate(token: string, assessment: Assessment) {
  const ids: number[] = [];
  for (let skip = 0; ; skip += TEMPLATE_PAGE) {
    const page = await call(
      'listAssessmentMarks',
      { objectId: assessment.objectId, skip, limit: TEMPLATE_PAGE },
      { token },
    );
    if (!page.ok || !page.data) break;
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
  token: string;
  assessment: Assessment;
  onClose: () => void;
  onSaved: () => void;
}

/** CSV import: choose a file, see every bad row with its error, save only when all rows are good. */
/** "1 of 1 row has an error. Fix it ...", "2 of 5 rows have errors. Fix them ...". */
function rowsWithErrors(errors: number, rows: number): string {
  const one = errors === 1;
  return `${errors} of ${rows} ${rows === 1 ? 'row' : 'rows'} ${one ? 'has an error' : 'have errors'}. Fix ${one ? 'it' : 'them'} in the file and choose it again.`;
}

export function CsvImportDialog({ token, assessment, onClose, onSaved }: Props) {
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = async (file: File | undefined) => {
    setPreview(null);
    if (!file) return;
    const text = await file.text();
    setCsv(text);
    setBusy(true);
    const result = await call('previewMarksCsv', { objectId: assessment.objectId, csv: text }, { token });
    setBusy(false);
    if (result.ok && result.data) setPreview(result.data);
    else notify.error(errorText(result, 'The file could not be read. Please try again.'));
  };

  const save = async () => {
    if (!csv) return;
    setBusy(true);
    const result = await call('importMarksCsv', { objectId: assessment.objectId, csv }, { token });
    setBusy(false);
    if (result.ok && result.data) {
      notify.success(`Imported ${marksCount(result.data.saved)}`);
      onSaved();
    } else notify.error(errorText(result, 'The marks could not be saved. Please try again.'));
  };

  const bad = preview?.rows.filter((row) => row.error) ?? [];

  return (
    <Dialog open onClose={onClose} aria-labelledby="csv-dialog-title" fullWidth maxWidth="md">
      <DialogTitle id="csv-dialog-title">Import marks from CSV</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            One line per student: <code>enrollment id,marks</code>, with marks from 0 to {assessment.maxMarks} or{' '}
            <code>absent</code>; a student whose marks are left blank keeps the marks they have. Nothing is saved while
            any row has an error.
          </DialogContentText>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button variant="outlined" onClick={() => void downloadTemplate(token, assessment)}>
              Download template
            </Button>
            <Button variant="outlined" component="label">
              Choose CSV file
              <input
                type="file"
                accept=".csv,text/csv"
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
          {busy && <Alert severity="info">Checking...</Alert>}
          {preview && bad.length === 0 && (
            <Alert severity="success">
              {preview.rows.length === 1 ? 'The row is good.' : `All ${preview.rows.length} rows are good.`}
              {preview.unchangedCount > 0 &&
                ` ${preview.unchangedCount} with no marks ${preview.unchangedCount === 1 ? 'is' : 'are'} left as ${preview.unchangedCount === 1 ? 'it is' : 'they are'}.`}
            </Alert>
          )}
          {preview && bad.length > 0 && (
            <>
              <Alert severity="error">{rowsWithErrors(preview.errorCount, preview.rows.length)}</Alert>
              <TableContainer sx={{ maxHeight: 320 }}>
                <Table size="small" stickyHeader aria-label="Rows with errors">
                  <TableHead>
                    <TableRow>
                      <TableCell>Line</TableCell>
                      <TableCell>Enrollment ID</TableCell>
                      <TableCell>Marks</TableCell>
                      <TableCell>Error</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {bad.slice(0, SHOWN_ROWS).map((row) => (
                      <TableRow key={row.line}>
                        <TableCell>{row.line}</TableCell>
                        <TableCell>{row.id ?? ''}</TableCell>
                        <TableCell>{row.value}</TableCell>
                        <TableCell sx={{ color: 'error.main' }}>{row.error}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy || !preview || bad.length > 0}>
          {preview && bad.length === 0 ? `Save ${marksCount(preview.rows.length - preview.unchangedCount)}` : 'Save'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
