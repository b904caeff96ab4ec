import type { ReactNode } from 'react';
import { Notifications } from '../components/notifications.tsx';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Notifications />
    </>
  );
}
