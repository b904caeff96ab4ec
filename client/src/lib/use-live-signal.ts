import { useEffect, useRef } from 'react';

/** At most one reload per this long while changes keep coming (a burst of registrations). */
const QUIET_MS = 300;
/**
 * Each reload is a call with the session, which counts as its use: after this long
 * without the person's own input the page stops reloading by itself, so that an
 * unattended page cannot keep a session alive past its idle timeout (admins: 30
 * minutes). The next key or pointer press reloads once and resumes.
 */
const UNATTENDED_MS = 10 * 60_000;
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

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
    let lastInput = Date.now();
    let missed = false;
    const input = () => {
      lastInput = Date.now();
      if (missed && !stopped) {
        missed = false;
        latest.current();
      }
    };
    for (const name of INPUT_EVENTS) window.addEventListener(name, input, { passive: true, capture: true });
    // The first change reloads at once, the ones right after it once more at the end.
    const changed = () => {
      if (Date.now() - lastInput > UNATTENDED_MS) {
        missed = true;
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
      for (const name of INPUT_EVENTS) window.removeEventListener(name, input, { capture: true });
      if (timer) clearTimeout(timer);
      unsubscribe?.();
    };
  }, [key, sessionToken]);
}
