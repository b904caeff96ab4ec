// Calls made as the logged-in student or admin. A session that has ended is
// handled here, once, for every page: the stored token is cleared, a toast says
// why, and the page moves to that role's login.

import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CallName, RequestOf, ResponseOf } from '@tc/domain/api/contract';
import { UiMessage } from '@tc/domain/messages';
import { Route } from '@tc/domain/routes';
import { call, type ApiResult } from './api.ts';
import { errorText } from './errors.ts';
import { notify } from './notify.ts';
import { adminSession, studentSession } from './session.ts';

export type Role = 'student' | 'admin';

const SESSION = { student: studentSession, admin: adminSession };
const LOGIN = { student: Route.studentLogin, admin: Route.adminLogin };

export function useApi(role: Role) {
  const navigate = useNavigate();
  const session = SESSION[role];
  const token = session.token();

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

  const callAs = useCallback(
    async <N extends CallName>(name: N, input: NoInfer<RequestOf<N>>): Promise<ApiResult<ResponseOf<N>>> => {
      // The session has just ended in this browser, and the page is on its way to the
      // login (a page still on screen reloads as the token goes): nothing to ask the
      // server, and nothing to announce. Before, its 401 put "Session expired" over the
      // toast that said why the session ended ("Logged out successfully", "Only
      // administrators can do this").
      if (!token) return { ok: false, status: 401, data: null, headers: null };
      const result = await call(name, input, { token });
      // 401: the session expired or was revoked. 403: a session of the other role
      // (a student's token on the admin page): say so rather than "expired".
      if (result.status === 401) signOut(UiMessage.sessionExpired);
      else if (result.status === 403) signOut(errorText(result, UiMessage.sessionExpired));
      return result;
    },
    [token, signOut],
  );

  return useMemo(() => ({ token, call: callAs, signOut }), [token, callAs, signOut]);
}
