import { useSyncExternalStore } from 'react';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { Route } from '@tc/domain/routes';
import { ContactBlock } from './contact-block.tsx';
import { TextLink } from './text-link.tsx';

/** The year the pages were built, and pre-rendered, in (vite.config.ts `define`). */
declare const __BUILD_YEAR__: number;

const noChanges = () => () => {};

export function Footer() {
  // A pre-rendered page says the year it was built in, and the render that hydrates it must
  // say the same; then this year, for a page built in an earlier one.
  const year = useSyncExternalStore(
    noChanges,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
  return (
    <footer className="site-footer">
      <ContactBlock />
      <nav aria-label="Legal">
        <TextLink to={Route.terms}>Terms and conditions</TextLink>
        <TextLink to={Route.privacy}>Privacy notice</TextLink>
      </nav>
      <p>
        © {year} {PRODUCT_NAME}. All rights reserved
      </p>
    </footer>
  );
}
