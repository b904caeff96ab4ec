// Logging out: the server ends the session (or, for a student who asks, every
// session of theirs), then this browser forgets it. Loaded when asked for: the
// header of every page offers it, and its messages need not weigh on each page's
// first load.

import { UiMessage } from '@tc/domain/messages';
import { call } from './api.ts';
import { notify } from './notify.ts';
import { adminSession, studentSession } from './session.ts';

/**
 * Logs out with a toast that says how it went; true once this browser has forgotten
 * the session, which a plain logout always does. The caller asks about unsaved work first (unsavedWork.mayLeave), before
 * its button shows it is busy, so that "Stay" gives the focus back to a live button.
 */
export async function logOut(role: 'student' | 'admin', everywhere = false): Promise<boolean> {
  const session = role === 'student' ? studentSession : adminSession;
  const name = role === 'admin' ? 'logoutAdmin' : everywhere ? 'logoutAllDevices' : 'logoutStudent';
  const token = session.token();
  const result = await call(name, {}, { token });
  // A 401 means the session had ended on the server already: logged out either way.
  if (result.ok || result.status === 401) {
    session.clear();
    notify.success(everywhere ? UiMessage.loggedOutEverywhere : UiMessage.loggedOut);
    return true;
  }
  notify.error(UiMessage.errorLoggingOut);
  // This browser forgets the session all the same: on a shared computer the next person
  // must not find it signed in because the network failed (the server's session then ends
  // when it has gone unused for its idle time). "Log out of all devices" stays, to be tried
  // again: other devices are what it is for.
  if (everywhere) return false;
  session.clear();
  // The server is asked again while this page is open, so that the session ends there too
  // (a copy of the tab, reopened from the browser's history, would otherwise still work).
  if (token) endOnServerLater(name, token);
  return true;
}

/** Pauses before each new try of a logout the server did not answer (and on coming back online). */
const RETRY_AFTER_MS = [2_000, 10_000, 60_000, 300_000];

function endOnServerLater(name: 'logoutAdmin' | 'logoutStudent' | 'logoutAllDevices', token: string): void {
  let tries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (timer) clearTimeout(timer);
    window.removeEventListener('online', tryNow);
  };
  function tryNow(): void {
    if (timer) clearTimeout(timer);
    void call(name, {}, { token }).then((result) => {
      // Ended (or already gone): done.
      if (result.ok || result.status === 401) return stop();
      const pause = RETRY_AFTER_MS[tries++];
      if (pause === undefined) return stop();
      timer = setTimeout(tryNow, pause);
    });
  }
  window.addEventListener('online', tryNow);
  timer = setTimeout(tryNow, RETRY_AFTER_MS[tries++]);
}
