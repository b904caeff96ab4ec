import { useEffect } from 'react';
import { PRODUCT_NAME } from '@tc/domain/constants';

/**
 * Sets the document title of a screen. It updates the one <title> of
 * index.html rather than rendering a second one.
 */
export function PageTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} | ${PRODUCT_NAME}`;
  }, [title]);
  return null;
}
