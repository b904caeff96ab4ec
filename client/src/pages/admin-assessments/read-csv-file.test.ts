import { describe, expect, it } from 'vitest';
import { AssessmentMessage as M } from '@tc/domain/assessments';
import { BODY_LIMIT_BYTES } from '@tc/domain/constants';
import { readCsvFile } from './read-csv-file.ts';

const utf16be = (text: string) => {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    bytes[2 * i] = text.charCodeAt(i) >> 8;
    bytes[2 * i + 1] = text.charCodeAt(i) & 0xff;
  }
  return bytes;
};

describe('reading a marks CSV file', () => {
  it('reads UTF-8 (with or without its byte order mark) and UTF-16 of either byte order', async () => {
    expect(await readCsvFile(new Blob(['101,7.5\n']))).toEqual({ text: '101,7.5\n' });
    expect(await readCsvFile(new Blob(['\uFEFF101,7.5\n']))).toEqual({ text: '101,7.5\n' });
    expect(await readCsvFile(new Blob([utf16be('\uFEFF101\t7\r\n')]))).toEqual({ text: '101\t7\r\n' });
    const le = utf16be('\uFEFF101\t7\r\n').map((_, i, all) => all[i ^ 1]!);
    expect(await readCsvFile(new Blob([le]))).toEqual({ text: '101\t7\r\n' });
  });

  it('says what is wrong with a workbook, a file too large or one that cannot be read', async () => {
    expect(await readCsvFile(new Blob([new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 6, 0])]))).toEqual({
      problem: M.notCsv,
    });
    // What counts is the request the file makes: its line ends are escaped in it.
    const lines = (count: number) => new Blob(['123456789,absent\r\n'.repeat(count)]);
    expect(await readCsvFile(lines(5000))).toHaveProperty('text');
    expect(await readCsvFile(lines(5500))).toEqual({ problem: M.csvTooLarge });
    expect(await readCsvFile(new Blob(['1'.repeat(2 * BODY_LIMIT_BYTES + 1)]))).toEqual({ problem: M.csvTooLarge });
    const gone = new Blob(['101,7']);
    gone.arrayBuffer = () => Promise.reject(new DOMException('The file was moved', 'NotReadableError'));
    expect(await readCsvFile(gone)).toEqual({ problem: M.csvUnreadable });
  });
});
