import { PRODUCT_NAME } from '@tc/domain/constants';
import { Route } from '@tc/domain/routes';
import { ContactBlock } from './contact-block.tsx';
import { TextLink } from './text-link.tsx';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <ContactBlock />
      <nav aria-label="Legal">
        <TextLink to={Route.terms}>Terms and conditions</TextLink>
        <TextLink to={Route.privacy}>Privacy notice</TextLink>
      </nav>
      {/* The page may be pre-rendered in an earlier year. */}
      <p suppressHydrationWarning>
        © {year} {PRODUCT_NAME}. All rights reserved
      </p>
    </footer>
  );
}
