// The site's colours and font, in one place. The MUI theme (theme.ts) is built
// from them, and styles/site.css repeats them as CSS variables for the page frame
// and the home page, which load without MUI (palette.test.ts keeps the two equal).

export const palette = {
  primary: { main: '#1a3a8f', light: '#3d5fc4', dark: '#10275f', contrastText: '#ffffff' },
  secondary: { main: '#ffb020', light: '#ffc859', dark: '#c77f00', contrastText: '#1f1300' },
  background: { default: '#f3f6fc', paper: '#ffffff' },
  text: { primary: '#172033', secondary: '#4a5568' },
  error: { main: '#b3261e' },
  success: { main: '#1b7a3d' },
  divider: '#dde3ef',
} as const;

export const fontFamily = [
  '"Nunito Variable"',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

/** `#rrggbb` with an opacity, as `rgba(...)` (what MUI's `alpha` does, without MUI). */
export function withAlpha(hex: string, opacity: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${opacity})`;
}
