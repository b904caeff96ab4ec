// The MUI theme of the site (design.md), built from palette.ts. The page-wide
// rules (what CssBaseline used to give) live in styles/site.css, which loads
// before any MUI code.

import { alpha } from '@mui/material/styles';
import { createTheme, type ThemeOptions } from './mui-without-css-variables.ts';
import { fontFamily, palette } from './palette.ts';

const blue = palette.primary;

/** What the theme is made of (exported for the test that MUI's own createTheme makes the same theme of it). */
export const themeOptions: ThemeOptions = {
  breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } },
  palette: { mode: 'light', ...palette },
  shape: { borderRadius: 12 },
  typography: {
    fontFamily,
    h1: { fontSize: 'clamp(1.75rem, 1.2rem + 2.4vw, 2.75rem)', fontWeight: 800, lineHeight: 1.15 },
    h2: { fontSize: 'clamp(1.4rem, 1.1rem + 1.4vw, 2rem)', fontWeight: 800, lineHeight: 1.2 },
    h3: { fontSize: '1.25rem', fontWeight: 800, lineHeight: 1.3 },
    button: { fontWeight: 700, textTransform: 'none', letterSpacing: 0 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: ({ theme: t }) => ({
          borderRadius: 12,
          paddingInline: 20,
          minHeight: 44,
          // Inert but focusable while its work runs (aria-disabled, not disabled: a disabled
          // button drops the keyboard's focus to the page's start), it looks disabled.
          '&[aria-disabled="true"]': {
            color: t.palette.action.disabled,
            cursor: 'default',
            '&:hover': { backgroundColor: 'transparent' },
          },
          '&.MuiButton-outlined[aria-disabled="true"]': { borderColor: t.palette.action.disabledBackground },
          '&.MuiButton-contained[aria-disabled="true"]': {
            backgroundColor: t.palette.action.disabledBackground,
            boxShadow: 'none',
            '&:hover': { backgroundColor: t.palette.action.disabledBackground },
          },
        }),
        sizeLarge: { minHeight: 48, fontSize: '1rem' },
      },
    },
    // Every button, icon button, checkbox, radio and tab shows keyboard focus as a
    // ring of at least 3:1 against the page (WCAG 2.4.7, 2.4.11, 1.4.11), not MUI's
    // faint ripple alone.
    MuiButtonBase: {
      styleOverrides: { root: { '&.Mui-focusVisible': { outline: `3px solid ${blue.light}`, outlineOffset: 2 } } },
    },
    // On a phone an icon button standing alone is a finger's size, 44 px each way (WCAG 2.5.5,
    // as the buttons above): MUI's small one is 30, its medium one 40. One at a field's edge
    // (a password's Show, a date's calendar) keeps the field's own size.
    MuiIconButton: {
      styleOverrides: {
        root: ({ theme: t, ownerState }) =>
          ownerState.edge ? {} : { [t.breakpoints.down('sm')]: { minWidth: 44, minHeight: 44 } },
      },
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
    // On a phone a dialog keeps 16 px of page around it, not MUI's 32 px: at 320 px
    // the longer field labels ("Online class link (optional)") fit uncut.
    MuiDialog: {
      styleOverrides: {
        // A full-screen dialog (the student's editor on a phone) keeps no margin at all.
        paper: ({ theme: t, ownerState }) =>
          ownerState.fullScreen ? {} : { [t.breakpoints.down('sm')]: { margin: 16 } },
        paperFullWidth: ({ theme: t, ownerState }) =>
          ownerState.fullScreen ? {} : { [t.breakpoints.down('sm')]: { width: 'calc(100% - 32px)' } },
      },
    },
    MuiDialogContent: {
      styleOverrides: { root: ({ theme: t }) => ({ [t.breakpoints.down('sm')]: { paddingInline: 16 } }) },
    },
    MuiDialogTitle: {
      styleOverrides: { root: ({ theme: t }) => ({ [t.breakpoints.down('sm')]: { paddingInline: 16 } }) },
    },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 16 } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiOutlinedInput: {
      styleOverrides: { root: { borderRadius: 12, backgroundColor: '#ffffff' } },
    },
    MuiFormHelperText: { styleOverrides: { root: { marginInline: 4 } } },
  },
};

export const theme = createTheme(themeOptions);
