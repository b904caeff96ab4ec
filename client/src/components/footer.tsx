import { PRODUCT_NAME } from '@tc/domain/constants';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      {/* The page may be pre-rendered in an earlier year. */}
      <p suppressHydrationWarning>
        © {year} {PRODUCT_NAME}. All rights reserved
      </p>
    </footer>
  );
}
