import { alpha, styled } from '@mui/material/styles';
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
  className?: string;
}

const Anchor = styled('a', {
  shouldForwardProp: (prop) => !['variant', 'colour', 'size', 'fullWidthOnPhone'].includes(prop as string),
})<{ variant: Variant; colour: Colour; size: 'medium' | 'large'; fullWidthOnPhone: boolean }>(({
  theme,
  variant,
  colour,
  size,
  fullWidthOnPhone,
}) => {
  const palette = theme.palette[colour];
  return {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: theme.spacing(1),
    boxSizing: 'border-box',
    minHeight: size === 'large' ? 48 : 44,
    padding: theme.spacing(0.75, 2.5),
    borderRadius: 12,
    fontFamily: theme.typography.fontFamily,
    fontWeight: 700,
    fontSize: size === 'large' ? '1rem' : theme.typography.button.fontSize,
    lineHeight: 1.5,
    textDecoration: 'none',
    textAlign: 'center',
    cursor: 'pointer',
    transition: theme.transitions.create(['background-color', 'border-color', 'color']),
    border: '1px solid transparent',
    ...(variant === 'contained' && {
      backgroundColor: palette.main,
      color: palette.contrastText,
      '&:hover': { backgroundColor: colour === 'secondary' ? palette.light : palette.dark },
    }),
    ...(variant === 'outlined' && {
      borderColor: alpha(theme.palette.primary.main, 0.5),
      color: theme.palette.primary.main,
      '&:hover': { borderColor: theme.palette.primary.main, backgroundColor: alpha(theme.palette.primary.main, 0.06) },
    }),
    ...(variant === 'text' && {
      color: theme.palette.primary.main,
      paddingInline: theme.spacing(1.5),
      '&:hover': { backgroundColor: alpha(theme.palette.primary.main, 0.06) },
    }),
    '&:focus-visible': { outline: `3px solid ${theme.palette.primary.light}`, outlineOffset: 2 },
    '& > svg': { fontSize: 20 },
    ...(fullWidthOnPhone && { [theme.breakpoints.down('sm')]: { width: '100%' } }),
  };
});

/**
 * A link that looks like a button: navigation stays a real <a href> (crawlable,
 * opens in a new tab) while client-side routing handles the click. Lighter than
 * MUI's Button, so the home page's first load stays small.
 */
export function LinkButton({
  to,
  children,
  variant = 'contained',
  color = 'primary',
  size = 'medium',
  startIcon,
  fullWidthOnPhone = false,
  className,
}: LinkButtonProps) {
  const href = useHref(to);
  const onClick = useLinkClickHandler(to);
  return (
    <Anchor
      href={href}
      onClick={onClick}
      variant={variant}
      colour={color}
      size={size}
      fullWidthOnPhone={fullWidthOnPhone}
      className={className}
    >
      {startIcon}
      {children}
    </Anchor>
  );
}
