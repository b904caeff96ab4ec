// The one theme of the site (design.md): every colour, radius and font lives here.

import { alpha, createTheme } from '@mui/material/styles';

const blue = { main: '#1a3a8f', light: '#3d5fc4', dark: '#10275f', contrastText: '#ffffff' };
const amber = { main: '#ffb020', light: '#ffc859', dark: '#c77f00', contrastText: '#1f1300' };

const fontFamily = [
  '"Nunito Variable"',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

export const theme = createTheme({
  breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } },
  palette: {
    mode: 'light',
    primary: blue,
    secondary: amber,
    background: { default: '#f3f6fc', paper: '#ffffff' },
    text: { primary: '#172033', secondary: '#4a5568' },
    error: { main: '#b3261e' },
    success: { main: '#1b7a3d' },
    divider: '#dde3ef',
  },
  shape: { borderRadius: 12 },
  typography: {
    fontFamily,
    h1: { fontSize: 'clamp(1.75rem, 1.2rem + 2.4vw, 2.75rem)', fontWeight: 800, lineHeight: 1.15 },
    h2: { fontSize: 'clamp(1.4rem, 1.1rem + 1.4vw, 2rem)', fontWeight: 800, lineHeight: 1.2 },
    h3: { fontSize: '1.25rem', fontWeight: 800, lineHeight: 1.3 },
    button: { fontWeight: 700, textTransform: 'none', letterSpacing: 0 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: (t) => ({
        html: { WebkitTextSizeAdjust: '100%' },
        // react-toastify's light theme reads its colours from these variables (WCAG AA text).
        ':root': {
          '--toastify-text-color-light': t.palette.text.primary,
          '--toastify-color-success': t.palette.success.main,
          '--toastify-color-error': t.palette.error.main,
          '--toastify-color-info': t.palette.primary.main,
          '--toastify-font-family': fontFamily,
        },
        body: { overflowX: 'hidden', minWidth: 320 },
        '#root': { minHeight: '100vh', display: 'flex', flexDirection: 'column' },
        ':focus-visible': { outline: `3px solid ${t.palette.primary.light}`, outlineOffset: 2 },
        '.visually-hidden': {
          position: 'absolute',
          width: 1,
          height: 1,
          padding: 0,
          margin: -1,
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          whiteSpace: 'nowrap',
          border: 0,
        },
        '.Toastify__toast': { fontFamily, borderRadius: 12 },
        '.Toastify__toast-container': { maxWidth: 'calc(100vw - 16px)' },
        '.Toastify--animate.Toastify__slide-enter--bottom-center': { animationDuration: '0.3s' },
        '.Toastify--animate.Toastify__slide-exit--bottom-center': { animationDuration: '0.15s' },
      }),
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: { borderRadius: 12, paddingInline: 20, minHeight: 44 },
        sizeLarge: { minHeight: 48, fontSize: '1rem' },
      },
    },
    MuiIconButton: {
      styleOverrides: { root: { '&.Mui-focusVisible': { outline: `3px solid ${blue.light}` } } },
    },
    MuiCard: {
      defaultProps: { elevation: 0 },
      styleOverrides: {
        root: ({ theme: t }) => ({
          borderRadius: 16,
          border: `1px solid ${t.palette.divider}`,
          boxShadow: `0 8px 24px ${alpha(t.palette.primary.dark, 0.08)}`,
        }),
      },
    },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 16 } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiOutlinedInput: {
      styleOverrides: { root: { borderRadius: 12, backgroundColor: '#ffffff' } },
    },
    MuiFormHelperText: { styleOverrides: { root: { marginInline: 4 } } },
  },
});
