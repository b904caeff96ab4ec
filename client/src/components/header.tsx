import { useHref, useLinkClickHandler } from 'react-router-dom';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { LinkButton } from './link-button.tsx';
import { Logo } from './logo.tsx';

export function Header() {
  const homeHref = useHref('/Home');
  const goHome = useLinkClickHandler('/Home');
  return (
    <header className="site-header">
      <a className="site-brand" href={homeHref} onClick={goHome} aria-label={`${PRODUCT_NAME} home`}>
        <Logo size={40} />
        <span className="site-brand__name">{PRODUCT_NAME}</span>
      </a>
      <LinkButton to="/Registeruser" color="secondary">
        Enroll Now
      </LinkButton>
    </header>
  );
}
