// styles/site.css repeats the palette as CSS variables for the parts of the
// site that load without MUI; they must not drift apart.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { palette, withAlpha } from './palette.ts';

const css = readFileSync(path.join(import.meta.dirname, '../styles/site.css'), 'utf8');
const variable = (name: string) => new RegExp(`--${name}:\\s*([^;]+);`).exec(css)?.[1]?.trim();

describe('site.css and the palette', () => {
  it.each([
    ['primary', palette.primary.main],
    ['primary-light', palette.primary.light],
    ['primary-dark', palette.primary.dark],
    ['secondary', palette.secondary.main],
    ['secondary-light', palette.secondary.light],
    ['secondary-contrast', palette.secondary.contrastText],
    ['background', palette.background.default],
    ['paper', palette.background.paper],
    ['text', palette.text.primary],
    ['text-secondary', palette.text.secondary],
    ['error', palette.error.main],
    ['success', palette.success.main],
    ['divider', palette.divider],
  ])('--%s is %s', (name, colour) => {
    expect(variable(name)).toBe(colour);
  });

  it('writes translucent colours of the palette as rgba()', () => {
    expect(withAlpha(palette.primary.main, 0.08)).toBe('rgba(26, 58, 143, 0.08)');
    expect(css).toContain('rgba(26, 58, 143, 0.08)');
  });
});
