import type { ReactNode } from 'react';
import { useHref, useLinkClickHandler } from 'react-router-dom';

type Variant = 'contained' | 'outlined' | 'text';
type Colour = 'primary' | 'secondary';

interface LinkButtonProps {
  to: string;
  children: ReactNode;
  variant?: Variant;
  color?: Colour;
  size?: 'medium' | 'large';
  startIcon?: ReactNode;
  /** Full width below the `sm` breakpoint (design.md: primary buttons full width on phones). */
  fullWidthOnPhone?: boolean;
}

/**
 * A link that looks like a button: navigation stays a real <a href> (crawlable,
 * opens in a new tab) while client-side routing handles the click. Styled by
 * styles/site.css, so the page frame and the home page need no MUI code.
 */
export function LinkButton({
  to,
  children,
  variant = 'contained',
  color = 'primary',
  size = 'medium',
  startIcon,
  fullWidthOnPhone = false,
}: LinkButtonProps) {
  const href = useHref(to);
  const onClick = useLinkClickHandler(to);
  const className = [
    'link-button',
    `link-button--${variant}`,
    `link-button--${color}`,
    size === 'large' && 'link-button--large',
    fullWidthOnPhone && 'link-button--phone-full',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <a href={href} onClick={onClick} className={className}>
      {startIcon}
      {children}
    </a>
  );
}
