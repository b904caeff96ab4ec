import { useEffect, useRef } from 'react';
import { NavigationType, useNavigationType } from 'react-router-dom';

/**
 * A link or a redirect to another page opens it at its top, as a page load would:
 * the window otherwise keeps the old page's scroll, and on a phone the new page's
 * heading (the thank-you page's enrollment number, say) starts off-screen. Back and
 * forward are left to the browser, which puts the reader back where they were; a
 * change of the query alone (a search, an opened panel) keeps the page where it is.
 */
export function useScrollToTopOnRouteChange(pathname: string): void {
  const navigationType = useNavigationType();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    if (navigationType !== NavigationType.Pop) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, navigationType]);
}
