import { Suspense, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '../components/footer.tsx';
import { Header } from '../components/header.tsx';
import { PageErrorBoundary } from '../components/page-error-boundary.tsx';
import { RouteLoading } from '../components/loading.tsx';
import { useFocusOnRouteChange } from '../lib/use-focus-on-route-change.ts';
import { useScrollToTopOnRouteChange } from '../lib/use-scroll-to-top-on-route-change.ts';

/** Header, the page, footer; the page's code loads inside while the frame stays. */
export function SiteLayout() {
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  useFocusOnRouteChange(pathname, main);
  useScrollToTopOnRouteChange(pathname);
  return (
    <>
      <a href="#main" className="skip-link visually-hidden">
        Skip to main content
      </a>
      <Header />
      <main id="main" className="site-main" tabIndex={-1} ref={main}>
        <PageErrorBoundary resetKey={pathname}>
          <Suspense fallback={<RouteLoading />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
      <Footer />
    </>
  );
}
