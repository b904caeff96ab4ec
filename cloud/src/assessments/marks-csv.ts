// Reading a marks CSV (`enrollment id, marks`) as spreadsheets write it: Excel
// (a BOM, a `sep=` first line, semicolons and decimal commas where the comma is
// the decimal mark, ids formatted "123.0"), Google Sheets and LibreOffice (tabs),
// any line ends. Each line that cannot be read is a row with its own problem,
// so the preview shows every one; the checks of the values are marks.ts's.

import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import { AssessmentMessage as M, MARKS_MAX_ROWS, parseMarkValue } from '@tc/domain/assessments';
import { hasStrayControl, showStrayControls } from '@tc/domain/plain-text';
import { validationFailed } from '../errors.ts';
import type { RowIn } from './marks.ts';

/**
 * The text without the Ctrl-Z an old DOS program ends a file with (and any blank after
 * it). A loop, not a regular expression: on a long run of them with something after it,
 * one (/\x1a+\s*$/) backtracked for seconds.
 */
function withoutDosEnd(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '\u001a') end--;
  return end === trimmed.length ? text : trimmed.slice(0, end);
}

/** An enrollment id as a spreadsheet may format it: "00123", "123", "123.0". */
const ENROLLMENT_ID = /^(\d{1,15})(?:\.0+)?$/;

/**
 * A first line of column names ("enrollment id,marks", "Roll No,Marks (of 20)"):
 * words without a digit, then something that is not a marks value. A first
 * line of data with a mistake ("Asha,15", ",15", "12a,15") is no header: it is
 * shown with its error.
 */
function isHeader(first: string, second: string): boolean {
  return /[a-z]/i.test(first) && !/\d/.test(first) && !parseMarkValue(second, Infinity).ok;
}

/**
 * The separator: the one a `sep=` first line names (Excel writes it, and the line
 * is no data), else a semicolon or a tab when the first line has one (Excel where
 * the comma is the decimal mark; a tab-separated download), else a comma.
 */
function separatorOf(text: string): { delimiter: string; body: string; linesBefore: number } {
  const named = /^sep=(.)[ \t]*(\r\n|\n|\r|$)/i.exec(text);
  if (named) return { delimiter: named[1]!, body: text.slice(named[0].length), linesBefore: 1 };
  const firstLine = /^[^\r\n]*/.exec(text)![0];
  // (A comma there may be a decimal mark, "12;7,5": the others are looked for first.)
  const delimiter = firstLine.includes(';') ? ';' : firstLine.includes('\t') ? '\t' : ',';
  return { delimiter, body: text, linesBefore: 0 };
}

/**
 * The rows of a marks file: a header line is skipped, as are blank lines and lines
 * with every cell empty; empty cells after the second are dropped (a spreadsheet's
 * unused columns). A file with no row is refused.
 */
export function readMarksCsv(csv: string): RowIn[] {
  // (A workbook or a UTF-16 file has NUL bytes: the input guard refuses those, and the
  // marks page says what to do before sending it.)
  const text = withoutDosEnd(csv.replace(/^\uFEFF/, ''));
  const { delimiter, body, linesBefore } = separatorOf(text);
  const { records, broken } = parseRecords(Buffer.from(body, 'utf8'), delimiter, linesBefore);

  const rows: RowIn[] = [];
  records.forEach(({ record, line }, index) => {
    while (record.length > 2 && record.at(-1) === '') record.pop();
    const [first = '', second = ''] = record;
    if (index === 0 && isHeader(first, second)) return;
    if (hasStrayControl(record.join(delimiter))) {
      rows.push({ line, id: null, value: showStrayControls(record.join(delimiter)), problem: M.controlCharacter });
      return;
    }
    if (record.length !== 2) {
      rows.push({ line, id: null, value: record.join(delimiter), problem: M.malformedLine });
      return;
    }
    const id = ENROLLMENT_ID.exec(first);
    if (!id) {
      rows.push({ line, id: null, value: record.join(delimiter), problem: M.enrollmentIdInvalid });
      return;
    }
    if (delimiter !== ',' && /^\d{1,3}[.,]\d{3}$/.test(second)) {
      // "1.000" or "1,000" where the comma is the decimal mark: a thousand, or one with three
      // decimals? Marks go in halves, so it is a thousands separator, and never read as 1.
      rows.push({ line, id: Number(id[1]), value: second, problem: M.thousandsSeparator });
      return;
    }
    // "7,5" where the comma is the decimal mark (the file is then separated otherwise).
    const value = delimiter === ',' ? second : second.replace(/^(\d+),(\d{1,2})$/, '$1.$2');
    rows.push({ line, id: Number(id[1]), value });
  });
  rows.push(
    ...broken.map(({ line, text }) => ({ line, id: null, value: showStrayControls(text), problem: M.quoteBroken })),
  );
  rows.sort((a, b) => a.line! - b.line!);
  if (!rows.length) validationFailed(M.emptyFile, 'csv');
  if (rows.length > MARKS_MAX_ROWS) validationFailed(M.tooManyRows, 'csv');
  return rows;
}

/**
 * The records of the file with their lines. A record the parser cannot read (a
 * quote not closed, or with other characters after it) is reported by its first
 * line, and reading starts again on the line after it: the library stops at the
 * first such record, and every later line would otherwise go unseen.
 */
function parseRecords(
  file: Buffer,
  delimiter: string,
  linesBefore: number,
): { records: { record: string[]; line: number }[]; broken: { line: number; text: string }[] } {
  const records: { record: string[]; line: number }[] = [];
  const broken: { line: number; text: string }[] = [];
  let rest = file;
  let linesRead = linesBefore;
  while (rest.length) {
    let failure: (CsvError & { bytes?: number }) | undefined;
    const parsed = parseCsv(rest, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      trim: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      // A quote inside a cell (7") is part of it; a quoted cell must be closed.
      relax_quotes: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        failure ??= error;
      },
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    // The parser's position may be before blank lines it skipped: the record starts after them.
    let start = failure?.bytes ?? rest.length;
    while (start < rest.length && BLANK.has(rest[start]!)) start++;
    const firstBrokenLine = linesRead + lineEndsIn(rest, start) + 1;
    for (const { record, info } of parsed) {
      const line = linesRead + info.lines;
      if (!failure || line < firstBrokenLine) records.push({ record, line });
    }
    if (!failure) break;
    // Each one reads the rest again: past this many, the admin has enough to fix first.
    if (broken.length === MAX_BROKEN_RECORDS) break;
    const next = afterLineEnd(rest, start);
    broken.push({ line: firstBrokenLine, text: rest.subarray(start, next).toString('utf8').trim() });
    linesRead = firstBrokenLine;
    rest = rest.subarray(next);
  }
  return { records, broken };
}

const [LF, CR] = [0x0a, 0x0d];
const BLANK = new Set([LF, CR, 0x20, 0x09]);
const MAX_BROKEN_RECORDS = 50;

/** How many line ends (CRLF, LF or CR) come before `end`. */
function lineEndsIn(buffer: Buffer, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) {
    if (buffer[i] === LF || (buffer[i] === CR && buffer[i + 1] !== LF)) count++;
  }
  return count;
}

/** Where the line that `from` is on ends, after its line end. */
function afterLineEnd(buffer: Buffer, from: number): number {
  for (let i = from; i < buffer.length; i++) {
    if (buffer[i] === LF) return i + 1;
    if (buffer[i] === CR) return buffer[i + 1] === LF ? i + 2 : i + 1;
  }
  return buffer.length;
}
