import Button, { type ButtonProps } from '@mui/material/Button';
import type { MouseEvent } from 'react';

/**
 * A button that does nothing while `inert` (its work runs): it keeps the keyboard's focus and
 * says it is unavailable (`aria-disabled`, drawn as disabled by the theme). A disabled button
 * would drop the focus to the page's start (Chromium does), and a keyboard or screen-reader
 * user would lose their place. An inert submit button's click is cancelled, so its form is
 * not sent again, by a click or by Enter in a field.
 */
export function InertButton({ inert, onClick, ...props }: ButtonProps & { inert: boolean }) {
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    if (inert) event.preventDefault();
    else onClick?.(event);
  };
  return <Button {...props} aria-disabled={inert || undefined} onClick={click} />;
}
