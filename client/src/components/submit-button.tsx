import type { ReactNode } from 'react';
import { useHydrated } from '../lib/use-hydrated.ts';
import { InertButton } from './inert-button.tsx';

/**
 * The full-width button that sends a public form. In the pre-rendered page, before
 * the form's code has arrived, it is disabled: the fields already take what is
 * typed (lib/use-early-input.ts), but sending the form then would make the browser
 * submit it by itself, the passwords in the address, and lose it all.
 */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <InertButton type="submit" variant="contained" size="large" unavailable={busy} disabled={!hydrated} fullWidth>
      {children}
    </InertButton>
  );
}
