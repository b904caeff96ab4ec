// Notifications: bottom centre, one at a time, duplicates suppressed
// (seed-spec §2 "Common", product.md §7). The message text is the toast id, so
// the same message never stacks; a new message replaces the one on screen.

import { toast, type TypeOptions } from 'react-toastify';

function show(type: TypeOptions, message: string): void {
  if (toast.isActive(message)) return;
  toast.clearWaitingQueue();
  toast.dismiss();
  toast(message, { type, toastId: message });
}

export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};
