import Button, { type ButtonProps } from '@mui/material/Button';
import type { MouseEvent } from 'react';

/**
 * A button that does nothing while `unavailable` (its work runs, or there is nothing to do
 * yet): it keeps the keyboard's focus and says it is unavailable (`aria-disabled`, drawn as
 * disabled by the theme). A disabled button would drop the focus to the page's start
 * (Chromium does), and a keyboard or screen-reader user would lose their place. An
 * unavailable submit button's click is cancelled, so its form is not sent again, by a click
 * or by Enter in a field. (Not HTML's `inert`, which would take the focus away too.)
 */
export function InertButton({ unavailable, onClick, ...props }: ButtonProps & { unavailable: boolean }) {
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    if (unavailable) event.preventDefault();
    else onClick?.(event);
  };
  return (
    <Button
      {...props}
      aria-disabled={unavailable || undefined}
      disableRipple={unavailable || props.disableRipple}
      onClick={click}
    />
  );
}
