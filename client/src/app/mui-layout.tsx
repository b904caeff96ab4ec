import { ThemeProvider } from './mui-without-css-variables.ts';
import { Outlet } from 'react-router-dom';
import { theme } from './theme.ts';

/**
 * The routes built with MUI sit under this layout, loaded with their first
 * page: the frame and the home page never load MUI or its theme.
 */
export default function MuiLayout() {
  return (
    <ThemeProvider theme={theme}>
      <Outlet />
    </ThemeProvider>
  );
}
