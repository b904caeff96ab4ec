// MUI's createTheme and ThemeProvider as they run for this site's theme: a palette, no
// `colorSchemes`, no `cssVariables`, which MUI's createTheme hands straight to
// createThemeNoVars ("behaves exactly as v5") and its ThemeProvider to ThemeProviderNoVars.
// Imported from the package entry, they bring the CSS-variables machinery the site never
// runs (createThemeWithVars, CssVarsProvider, the colour-scheme script) into every MUI
// page's first load. The package does not export these two files, hence their paths.

export { default as createTheme } from '../../../node_modules/@mui/material/styles/createThemeNoVars.mjs';
export { default as ThemeProvider } from '../../../node_modules/@mui/material/styles/ThemeProviderNoVars.mjs';
export type { ThemeOptions } from '../../../node_modules/@mui/material/styles/createThemeNoVars.mjs';
