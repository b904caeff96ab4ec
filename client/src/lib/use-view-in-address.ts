import { useCallback, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType, useSearchParams } from 'react-router-dom';

/** Marks the history entries this hook wrote (their `state`). */
const VIEW_WRITE = 'viewWrite';

/** Whether a history entry's state is one of this hook's writes. */
export const isViewWrite = (state: unknown): boolean =>
  (state as Record<string, unknown> | null)?.[VIEW_WRITE] === true;

/**
 * A page's view (filters, search, page number) kept in its address, changed in place:
 * Back leaves the page, not each filter on the way. A key changed to '' or undefined
 * leaves the address.
 *
 * Each change starts from the address this page last wrote while the address shown is
 * that write or one before it: React Router hands `setSearchParams` the parameters of the
 * last render, and renders a change late (as a transition), so two changes before a render
 * (a date typed, then a kind chosen, on a busy page) would build the second address
 * without the first. Once the address has moved otherwise (a link, Back), what it shows is
 * the base again, even an address this page wrote before. Use the `change` of the latest
 * render.
 */
export function useViewInAddress(): [URLSearchParams, (changes: Record<string, string | undefined>) => void] {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  /** The last address this page wrote, and the entry on screen when it wrote it. */
  const last = useRef<{ search: string; shownKey: string } | null>(null);
  const change = useCallback(
    (changes: Record<string, string | undefined>) => {
      // On screen: one of this page's writes (replacing, and marked so), or the entry that
      // was there when it last wrote (no render since). Anything else is a move of its own.
      const showsAWrite = navigationType === NavigationType.Replace && isViewWrite(location.state);
      const ours = showsAWrite || last.current?.shownKey === location.key;
      const next = new URLSearchParams(ours && last.current ? last.current.search : params);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      last.current = { search: next.toString(), shownKey: location.key };
      setParams(next, { replace: true, state: { [VIEW_WRITE]: true } });
    },
    [params, setParams, location, navigationType],
  );
  return [params, change];
}
