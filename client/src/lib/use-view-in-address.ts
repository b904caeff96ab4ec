import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A page's view (filters, search, page number) kept in its address, changed in place:
 * Back leaves the page, not each filter on the way.
 *
 * A key changed to '' or undefined leaves the address. Each change starts from the address this page last wrote, not from the last render's.
 * React Router hands `setSearchParams` the parameters of the last render, and renders a
 * change late (as a transition), so two changes before a render (a date typed, then a
 * kind chosen, on a busy page) would build the second address without the first.
 */
export function useViewInAddress(): [URLSearchParams, (changes: Record<string, string | undefined>) => void] {
  const [params, setParams] = useSearchParams();
  /** The address a render showed when this page began writing, then each one it wrote since. */
  const written = useRef<string[]>([]);
  const change = useCallback(
    (changes: Record<string, string | undefined>) => {
      const shown = params.toString();
      const at = written.current.indexOf(shown);
      // Shown among ours: the page is catching up with them. Not among them: the address
      // moved on its own (Back, a link), and what it shows now is the base.
      written.current = at === -1 ? [shown] : written.current.slice(at);
      const next = new URLSearchParams(written.current.at(-1));
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      written.current.push(next.toString());
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  return [params, change];
}
