import { useEffect, useLayoutEffect } from 'react';
import { cssTransition, ToastContainer, type ToastTransitionProps } from 'react-toastify';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';

/**
 * A short slide: the next message waits for the previous one to leave (one
 * toast at a time), so the exit is quick (duration set in the theme) and the
 * space is not collapsed slowly.
 */
const QuickSlide = cssTransition({
  enter: 'Toastify--animate Toastify__slide-enter',
  exit: 'Toastify--animate Toastify__slide-exit',
  appendPosition: true,
  collapse: false,
});

/** No animation at all, for users who prefer reduced motion. */
// react-toastify declares playToast as a method; it is a plain callback that uses no `this`.
// eslint-disable-next-line @typescript-eslint/unbound-method
function InstantTransition({ children, isIn, done, playToast }: ToastTransitionProps) {
  useLayoutEffect(() => {
    playToast();
  }, [playToast]);
  useEffect(() => {
    if (!isIn) done();
  }, [isIn, done]);
  return <>{children}</>;
}

/** The one toast container: bottom centre, one at a time. */
export default function ToastHost() {
  const reducedMotion = useReducedMotion();
  return (
    <ToastContainer
      position="bottom-center"
      limit={1}
      autoClose={5000}
      // A tap anywhere on it closes it: on a phone it may sit over a full-screen dialog's buttons.
      closeOnClick
      pauseOnFocusLoss
      pauseOnHover
      theme="light"
      transition={reducedMotion ? InstantTransition : QuickSlide}
    />
  );
}
