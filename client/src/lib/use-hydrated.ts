import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and while React takes over a pre-rendered page, true from
 * then on: for what must differ from the page's HTML, such as today's date.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
