import { useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { useHref, useLinkClickHandler, useLocation, useNavigate } from 'react-router-dom';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { LinkTo, Route } from '@tc/domain/routes';
import { notify } from '../lib/notify.ts';
import { adminSession, sessionChanges, studentSession } from '../lib/session.ts';
import { unsavedWork } from '../lib/unsaved-work.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { LinkButton } from './link-button.tsx';
import { Logo } from './logo.tsx';

type Role = 'student' | 'admin';

const SESSION = { student: studentSession, admin: adminSession };
const ACCOUNT = {
  student: { dashboard: Route.dashboard, label: 'My dashboard', login: Route.studentLogin },
  admin: { dashboard: Route.adminDashboard, label: 'Admin dashboard', login: Route.adminLogin },
} as const;

/**
 * Who is logged in in this browser. Read once the page is hydrated (the pre-rendered
 * header is everybody's), and again on every login, logout or name learnt.
 */
function useSignedIn(): Role | null {
  const hydrated = useHydrated();
  useSyncExternalStore(sessionChanges.subscribe, sessionChanges.count, () => 0);
  if (!hydrated) return null;
  if (studentSession.token()) return 'student';
  if (adminSession.token()) return 'admin';
  return null;
}

/**
 * The signed-in person's name: remembered beside the token once a dashboard or
 * this header has read the profile. The API client loads only when a name is
 * missing, so the pages of a visitor never load it for the header.
 */
function useSignedInName(role: Role | null): string | null {
  const name = role ? SESSION[role].name() : null;
  useEffect(() => {
    if (!role || name) return;
    const token = SESSION[role].token();
    let cancelled = false;
    void Promise.all([import('../lib/api.ts'), import('../lib/errors.ts')]).then(
      async ([{ call }, { isSessionRefused }]) => {
        const result =
          role === 'student' ? await call('getMyProfile', {}, { token }) : await call('getAdminProfile', {}, { token });
        if (cancelled) return;
        // A session that has ended is forgotten here too, with the words a page would say (the
        // page's own call may get its 401 after this one, when there is nothing left to end).
        if (isSessionRefused(result)) {
          if (SESSION[role].token() !== token) return;
          SESSION[role].clear();
          notify.error(UiMessage.sessionExpired);
          return;
        }
        const data = result.data as { fullname?: string; name?: string; email?: string } | null;
        const shown = role === 'student' ? data?.fullname : data?.name || data?.email;
        if (result.ok && shown) SESSION[role].rememberName(shown);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [role, name]);
  return name;
}

/**
 * The signed-in person's name, Enroll Now, their dashboard and Log out. On a wide screen all of
 * it sits in the header's row; on a phone a button with the name opens it, so the
 * header stays one row and the page's own content stays in view.
 */
function Account({ role }: { role: Role }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const name = useSignedInName(role);
  const [busy, setBusy] = useState(false);
  // Open on one page only: a new page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const account = ACCOUNT[role];

  // Closed by a click or a tap anywhere else.
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };

  const logout = async () => {
    if (busy) return;
    // Unsaved work on the page (the marks grid) is asked about first: "Stay" keeps the session.
    if (!(await unsavedWork.mayLeave())) return;
    setBusy(true);
    try {
      const { logOut } = await import('../lib/log-out.ts');
      if (await logOut(role)) void navigate(account.login, { replace: true });
    } catch {
      // The logout code could not be loaded (the connection dropped): this browser forgets
      // the session all the same, as lib/log-out.ts does when the server cannot be reached.
      notify.error(UiMessage.errorLoggingOut);
      SESSION[role].clear();
      void navigate(account.login, { replace: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div ref={root} className={open ? 'site-account site-account--open' : 'site-account'} onKeyDown={escape}>
      <button
        ref={toggle}
        type="button"
        className="site-account__toggle link-button link-button--outlined"
        aria-expanded={open}
        aria-controls="site-account-panel"
        onClick={() => setOpen(!open)}
      >
        <span className="site-account__toggle-name">{name ?? 'Account'}</span>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d={open ? 'm7 14 5-5 5 5z' : 'm7 10 5 5 5-5z'} />
        </svg>
      </button>
      <div id="site-account-panel" className="site-account__panel">
        <span className="site-account__name">
          {name ? (
            <>
              Signed in as <strong>{name}</strong>
            </>
          ) : (
            'Signed in'
          )}
        </span>
        <span className="site-account__actions">
          {/* The seed's header always has it: a parent enrolls a brother or sister too. */}
          <LinkButton to={LinkTo.register} color="secondary">
            Enroll Now
          </LinkButton>
          <LinkButton to={account.dashboard} variant="outlined">
            {account.label}
          </LinkButton>
          {/* Unavailable while the logout runs, not disabled, which would drop the focus. */}
          <button
            type="button"
            className="link-button link-button--text"
            onClick={() => void logout()}
            aria-disabled={busy || undefined}
          >
            Log out
          </button>
        </span>
      </div>
    </div>
  );
}

export function Header() {
  const homeHref = useHref(LinkTo.home);
  const goHome = useLinkClickHandler(LinkTo.home);
  const signedIn = useSignedIn();
  return (
    <header className="site-header">
      <a className="site-brand" href={homeHref} onClick={goHome} aria-label={`${PRODUCT_NAME} home`}>
        <Logo size={40} />
        <span className="site-brand__name">{PRODUCT_NAME}</span>
      </a>
      {signedIn === null ? (
        <LinkButton to={LinkTo.register} color="secondary">
          Enroll Now
        </LinkButton>
      ) : (
        <Account role={signedIn} />
      )}
    </header>
  );
}
