// Notifications: bottom centre, one at a time, duplicates suppressed
//. The message text is the toast id, so
// the same message never stacks; a new message replaces the one on screen.
//
// react-toastify loads with the first notification, not with the page: the
// home page never shows one. Toasts raised before the container mounts wait
// in react-toastify's own queue and appear when it does.

type ToastKind = 'success' | 'error' | 'info';

const listeners = new Set<() => void>();
let wanted = false;

/** Whether any notification was asked for yet (the container mounts then). */
export const toastDemand = {
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): boolean => wanted,
};

let pending: Promise<typeof import('react-toastify')> | null = null;

function show(type: ToastKind, message: string): void {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  pending ??= import('react-toastify');
  void pending.then(({ toast }) => {
    if (toast.isActive(message)) return;
    toast.clearWaitingQueue();
    toast.dismiss();
    toast(message, { type, toastId: message });
  });
}

export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  /** Takes down the toast on screen (an earlier error that no longer applies), or only the one saying `message`. */
  dismiss: (message?: string) => {
    if (pending) void pending.then(({ toast }) => toast.dismiss(message));
  },
};
