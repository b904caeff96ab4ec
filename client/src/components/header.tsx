import { useHref, useLinkClickHandler } from 'react-router-dom';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { LinkTo, Route } from '@tc/domain/routes';
import { adminSession, studentSession } from '../lib/session.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { LinkButton } from './link-button.tsx';
import { Logo } from './logo.tsx';

/**
 * Who is logged in in this browser. Read once the page is hydrated (the pre-rendered
 * header is everybody's); the header renders again on every route change, after a
 * login or a logout.
 */
function useSignedIn(): 'student' | 'admin' | null {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  if (studentSession.token()) return 'student';
  if (adminSession.token()) return 'admin';
  return null;
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
      {signedIn === null && (
        <LinkButton to={LinkTo.register} color="secondary">
          Enroll Now
        </LinkButton>
      )}
      {signedIn === 'student' && <LinkButton to={Route.dashboard}>My dashboard</LinkButton>}
      {signedIn === 'admin' && <LinkButton to={Route.adminDashboard}>Admin dashboard</LinkButton>}
    </header>
  );
}
