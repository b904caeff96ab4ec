import { useEffect, useLayoutEffect } from 'react';
import { Bounce, ToastContainer, type ToastTransitionProps } from 'react-toastify';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';

/** No animation at all, for users who prefer reduced motion. */
function InstantTransition({ children, isIn, done, playToast }: ToastTransitionProps) {
  useLayoutEffect(() => {
    playToast();
  }, [playToast]);
  useEffect(() => {
    if (!isIn) done();
  }, [isIn, done]);
  return <>{children}</>;
}

/** The one toast container: bottom centre, one at a time (seed-spec §2 "Common"). */
export default function ToastHost() {
  const reducedMotion = useReducedMotion();
  return (
    <ToastContainer
      position="bottom-center"
      limit={1}
      autoClose={5000}
      closeOnClick={false}
      pauseOnFocusLoss
      pauseOnHover
      theme="light"
      transition={reducedMotion ? InstantTransition : Bounce}
    />
  );
}
