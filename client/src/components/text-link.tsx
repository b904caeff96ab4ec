import type { ReactNode } from 'react';
import { useHref, useLinkClickHandler } from 'react-router-dom';

/**
 * A link in running text: a real <a href>, routed in the page (styled by site.css).
 * `newTab` opens it beside a half-filled form, which would be lost otherwise (and says so to
 * a screen reader).
 */
export function TextLink({ to, children, newTab = false }: { to: string; children: ReactNode; newTab?: boolean }) {
  const href = useHref(to);
  const onClick = useLinkClickHandler(to);
  if (newTab) {
    return (
      // A description, not part of the name (aria-description), which stays the link's text.
      <a href={href} className="text-link" target="_blank" rel="noopener" aria-description="Opens in a new tab">
        {children}
      </a>
    );
  }
  return (
    <a href={href} onClick={onClick} className="text-link">
      {children}
    </a>
  );
}
