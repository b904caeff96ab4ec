import type { ReactNode } from 'react';
import { PageTitle } from '../../components/page-title.tsx';

/**
 * The frame of the terms and the privacy notice: plain text, no MUI (styles/site.css).
 * The centre's contact details are in the footer, below.
 */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="legal">
      <PageTitle title={title} />
      <h1>{title}</h1>
      <p className="legal__updated">Last updated: {updated}</p>
      {children}
    </article>
  );
}
