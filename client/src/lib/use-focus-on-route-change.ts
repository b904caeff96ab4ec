import { useEffect, useRef } from 'react';

/** How long to wait for a lazily loaded page's heading (about a second of frames). */
const MAX_FRAMES = 60;

/**
 * After a route change (not on the first page), moves focus to the new page's
 * heading, so that keyboard and screen-reader users start at the top of the new
 * page instead of on the body (WCAG 2.4.3). A page that moves focus itself
 * (a form's first field in error) is left alone.
 */
export function useFocusOnRouteChange(pathname: string, main: React.RefObject<HTMLElement | null>): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frame = 0;
    let handle = 0;
    const focusHeading = () => {
      const root = main.current;
      if (!root) return;
      const active = document.activeElement;
      if (active && active !== document.body && root.contains(active)) return;
      const heading = root.querySelector('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      } else if (++frame < MAX_FRAMES) {
        handle = window.requestAnimationFrame(focusHeading);
      }
    };
    handle = window.requestAnimationFrame(focusHeading);
    return () => window.cancelAnimationFrame(handle);
  }, [pathname, main]);
}
