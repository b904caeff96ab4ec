import { describe, expect, it } from 'vitest';
import { chartDateLabels } from './dates.ts';

describe('chartDateLabels', () => {
  it('gives DD/MM while every date is in one year', () => {
    expect(chartDateLabels(['2026-01-17', '2026-05-23', '2026-09-26'])).toEqual(['17/01', '23/05', '26/09']);
  });

  it('adds the year when the dates span two years, so that no two years read alike', () => {
    expect(chartDateLabels(['2025-12-12', '2026-04-17', '2026-12-12'])).toEqual(['12/12/25', '17/04/26', '12/12/26']);
  });
});
