import { createContext, useContext, useEffect } from 'react';
import { PRODUCT_NAME } from '@tc/domain/constants';

/** Where the pre-renderer (entry-server.tsx) collects the title of the page it renders. */
export const TitleSink = createContext<((title: string) => void) | null>(null);

/**
 * Sets the document title of a screen. It updates the one <title> of
 * index.html rather than rendering a second one.
 */
export function PageTitle({ title }: { title: string }) {
  const fullTitle = `${title} | ${PRODUCT_NAME}`;
  useContext(TitleSink)?.(fullTitle);
  useEffect(() => {
    document.title = fullTitle;
  }, [fullTitle]);
  return null;
}
