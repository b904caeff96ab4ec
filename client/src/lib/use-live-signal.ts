import { useEffect, useRef } from 'react';
import { attended, onNextInput } from './attention.ts';

/** At most one reload per this long while changes keep coming (a burst of registrations). */
const QUIET_MS = 300;

/**
 * Reloads a page's data when the live signal `key` changes
 * (client/src/lib/parse-sdk.ts, loaded here on demand). Nothing happens
 * without a key or a session token, or when the socket cannot be opened.
 */
export function useLiveSignal(key: string | null, sessionToken: string | null, reload: () => void): void {
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });

  useEffect(() => {
    if (!key || !sessionToken) return;
    let stopped = false;
    let unsubscribe: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending = false;
    let cancelCatchUp: (() => void) | undefined;
    // The first change reloads at once, the ones right after it once more at the end.
    const changed = () => {
      // Each reload is a call with the session, which counts as its use: an unattended page
      // reloads once, at the person's next input (lib/attention.ts).
      if (!attended()) {
        cancelCatchUp ??= onNextInput(() => {
          cancelCatchUp = undefined;
          if (!stopped) latest.current();
        });
        return;
      }
      if (timer) {
        pending = true;
        return;
      }
      latest.current();
      timer = setTimeout(function settle() {
        timer = undefined;
        if (pending && !stopped) {
          pending = false;
          latest.current();
          timer = setTimeout(settle, QUIET_MS);
        }
      }, QUIET_MS);
    };
    import('./parse-sdk.ts')
      .then(({ followLiveSignal }) => followLiveSignal(key, sessionToken, () => !stopped && changed()))
      .then((stop) => {
        if (stopped) stop();
        else unsubscribe = stop;
      })
      .catch(() => {
        // No live updates (the SDK did not load, the socket was refused): the page still works.
      });
    return () => {
      stopped = true;
      cancelCatchUp?.();
      if (timer) clearTimeout(timer);
      unsubscribe?.();
    };
  }, [key, sessionToken]);
}
