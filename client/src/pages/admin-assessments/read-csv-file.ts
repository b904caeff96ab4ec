// A marks CSV file as text, or what is wrong with it, before anything is sent:
// spreadsheets save "CSV" in more ways than one.

import { AssessmentMessage as M } from '@tc/domain/assessments';
import { BODY_LIMIT_BYTES } from '@tc/domain/constants';

export type CsvFile = { text: string } | { problem: string };

/** The request that carries the file, in bytes: the site refuses bodies over BODY_LIMIT_BYTES. */
const sentSize = (text: string) => new TextEncoder().encode(JSON.stringify({ csv: text })).length;

export async function readCsvFile(file: Blob): Promise<CsvFile> {
  // (UTF-16 takes two bytes a character: such a file may be up to twice the limit.)
  if (file.size > 2 * BODY_LIMIT_BYTES) return { problem: M.csvTooLarge };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    // Moved or deleted since it was chosen, or a cloud placeholder that did not download.
    return { problem: M.csvUnreadable };
  }
  const text = decode(bytes);
  if (text === undefined) return { problem: M.notCsv };
  return sentSize(text) > BODY_LIMIT_BYTES ? { problem: M.csvTooLarge } : { text };
}

function decode(bytes: Uint8Array): string | undefined {
  // UTF-16, as Excel's "Unicode text" saves it: its byte order mark says which.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  // A workbook (.xlsx is a zip) or any other binary file: a CSV never has a NUL byte.
  if (bytes.includes(0)) return undefined;
  return new TextDecoder('utf-8').decode(bytes);
}
