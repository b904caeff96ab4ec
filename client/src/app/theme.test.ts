import { createTheme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { palette } from './palette.ts';
import { theme, themeOptions } from './theme.ts';

/** A theme as data: its functions by name (MUI's helpers), everything else as it is. */
const asData = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'function' ? `function ${v.name}` : v))) as unknown;

describe("the site's MUI theme, made without the CSS-variables machinery", () => {
  it("is the theme MUI's own createTheme makes of the same options", () => {
    expect(asData(theme)).toEqual(asData(createTheme(themeOptions)));
    // The palette and the component overrides reached it.
    expect(theme.palette.primary.main).toBe(palette.primary.main);
    expect(theme.shape.borderRadius).toBe(12);
  });

  it("goes down MUI's own provider's path for a theme without colour schemes", () => {
    // MUI's ThemeProvider hands a theme without `colorSchemes` to ThemeProviderNoVars, which
    // mui-without-css-variables.ts uses straight away.
    expect('colorSchemes' in createTheme(themeOptions)).toBe(false);
    expect('colorSchemes' in theme).toBe(false);
  });
});
