import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '../components/footer.tsx';
import { Header } from '../components/header.tsx';
import { PageErrorBoundary } from '../components/page-error-boundary.tsx';
import { RouteLoading } from '../components/loading.tsx';

/** Header, the page, footer; the page's code loads inside while the frame stays. */
export function SiteLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <Box
        component="a"
        href="#main"
        className="visually-hidden"
        sx={{
          '&:focus': {
            position: 'fixed',
            top: 8,
            left: 8,
            width: 'auto',
            height: 'auto',
            clip: 'auto',
            m: 0,
            p: 1.5,
            zIndex: 2000,
            bgcolor: 'background.paper',
            color: 'primary.main',
            borderRadius: 2,
          },
        }}
      >
        Skip to main content
      </Box>
      <Header />
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={{ flex: 1, display: 'flex', flexDirection: 'column', position: 'relative', minWidth: 0, outline: 'none' }}
      >
        <PageErrorBoundary resetKey={pathname}>
          <Suspense fallback={<RouteLoading />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </Box>
      <Footer />
    </>
  );
}
