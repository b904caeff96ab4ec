// A marks CSV file as text, or what is wrong with it, before anything is sent:
// spreadsheets save "CSV" in more ways than one.

import { AssessmentMessage as M, MARKS_CSV_MAX_BYTES } from '@tc/domain/assessments';

export type CsvFile = { text: string } | { problem: string };

export async function readCsvFile(file: Blob): Promise<CsvFile> {
  if (file.size > MARKS_CSV_MAX_BYTES) return { problem: M.csvTooLarge };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    // Moved or deleted since it was chosen, or a cloud placeholder that did not download.
    return { problem: M.csvUnreadable };
  }
  // UTF-16, as Excel's "Unicode text" saves it: its byte order mark says which.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes) };
  // A workbook (.xlsx is a zip) or any other binary file: a CSV never has a NUL byte.
  if (bytes.includes(0)) return { problem: M.notCsv };
  return { text: new TextDecoder('utf-8').decode(bytes) };
}
