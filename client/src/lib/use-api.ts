// Calls made as the logged-in student or admin. A session that has ended is
// handled here, once, for every page: the stored token is cleared, a toast says
// why, and the page moves to that role's login. Pages only say what their own
// call's failure means (see `CallResult.sessionEnded`). Why a 403 is checked with the
// server: docs/decisions/0016-session-end-in-the-browser.md.

import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CallName, RequestOf, ResponseOf } from '@tc/domain/api/contract';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { call, type ApiResult } from './api.ts';
import { errorText, isSessionRefused } from './errors.ts';
import { notify } from './notify.ts';
import { adminSession, sessionChanges, studentSession } from './session.ts';

export type Role = 'student' | 'admin';

export interface CallResult<T> extends ApiResult<T> {
  /** The session had ended: useApi has said so and is on its way to the login, so the page adds nothing. */
  sessionEnded: boolean;
}

const SESSION = { student: studentSession, admin: adminSession };
const LOGIN = { student: Route.studentLogin, admin: Route.adminLogin };
/** The call that answers only whether the session is a live one of its role. */
const WHO_AM_I = { student: 'getMyProfile', admin: 'getAdminProfile' } as const;

export function useApi(role: Role) {
  const navigate = useNavigate();
  const session = SESSION[role];
  // Read again on every change of session, this tab's or another's (a logout in
  // another tab ends the admin's session here too): the page then redirects.
  const token = useSyncExternalStore(
    sessionChanges.subscribe,
    () => session.token(),
    () => session.token(),
  );

  /** Ends the session in this browser and goes to the login page, with `message` as a toast if given. */
  const signOut = useCallback(
    (message?: string) => {
      // An answer about a session this browser has let go meanwhile (logged out while a
      // request was on its way, or a new session after a change of password): nothing to
      // announce, nowhere to go.
      // So is an answer to a call made with no session at all (see callAs).
      if (message && (!token || session.token() !== token)) return;
      session.clear();
      if (message) notify.error(message);
      void navigate(LOGIN[role], { replace: true });
    },
    [session, token, navigate, role],
  );

  /**
   * A 403 is a session of the other role (a student's token on the admin page), or a
   * refusal of this one request (an admin may not remove themselves). The server gives
   * both one code, so the session itself is asked: it is the other role's if it cannot
   * read its own role's profile.
   */
  const sessionFailed = useCallback(
    async (name: CallName, result: ApiResult<unknown>): Promise<boolean> => {
      if (isSessionRefused(result)) {
        signOut(UiMessage.sessionExpired);
        return true;
      }
      if (result.status !== 403) return false;
      // The profile call's own 403 already is the answer the check would get.
      const check = name === WHO_AM_I[role] ? result : await call(WHO_AM_I[role], {}, { token });
      if (isSessionRefused(check)) signOut(UiMessage.sessionExpired);
      else if (check.status === 403) signOut(errorText(check, UiMessage.sessionExpired));
      else return false;
      return true;
    },
    [role, token, signOut],
  );

  const callAs = useCallback(
    async <N extends CallName>(name: N, input: NoInfer<RequestOf<N>>): Promise<CallResult<ResponseOf<N>>> => {
      // The session has just ended in this browser, and the page is on its way to the
      // login (a page still on screen reloads as the token goes): nothing to ask the
      // server, and nothing to announce. Before, its 401 put "Session expired" over the
      // toast that said why the session ended ("Logged out successfully", "Only
      // administrators can do this").
      if (!token) return { ok: false, status: 401, data: null, headers: null, sessionEnded: true };
      const result = await call(name, input, { token });
      return { ...result, sessionEnded: !result.ok && (await sessionFailed(name, result)) };
    },
    [token, sessionFailed],
  );

  return useMemo(() => ({ token, call: callAs, signOut }), [token, callAs, signOut]);
}

/** The type of `useApi(role).call`, for the parts of a page that call on its behalf. */
export type CallAs = ReturnType<typeof useApi>['call'];
