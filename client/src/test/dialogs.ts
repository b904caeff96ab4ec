import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { FetchCall } from './render-app.tsx';

/**
 * Once the dialog's save has gone out (a `method` call among `calls`), its Cancel is inert and
 * neither it nor Escape closes the dialog: `onClose` is never called.
 */
export async function expectNotCancellableWhileSaving(
  user: UserEvent,
  calls: readonly FetchCall[],
  method: string,
  onClose: () => void,
): Promise<void> {
  await waitFor(() => expect(calls.some((c) => c.method === method)).toBe(true));
  const cancel = screen.getByRole('button', { name: 'Cancel' });
  expect(cancel).toHaveAttribute('aria-disabled', 'true');
  await user.click(cancel);
  await user.keyboard('{Escape}');
  expect(onClose).not.toHaveBeenCalled();
}
