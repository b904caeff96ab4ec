import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { useHydrated } from '../lib/use-hydrated.ts';

/**
 * The full-width button that sends a public form. In the pre-rendered page, before
 * the form's code has arrived, it is disabled: the fields already take what is
 * typed (lib/use-early-input.ts), but sending the form then would make the browser
 * submit it by itself, the passwords in the address, and lose it all.
 */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <Button type="submit" variant="contained" size="large" disabled={busy || !hydrated} fullWidth>
      {children}
    </Button>
  );
}
