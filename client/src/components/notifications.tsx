import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toastDemand } from '../lib/notify.ts';

const ToastHost = lazy(() => import('./toast-host.tsx'));

/** Mounts the toast container once the first notification is asked for. */
export function Notifications() {
  const wanted = useSyncExternalStore(toastDemand.subscribe, toastDemand.get, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  );
}
