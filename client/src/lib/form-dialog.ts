/**
 * A form dialog's `onClose`: Escape and Cancel close it, a tap beside it does not. On a
 * phone a stray tap on the dimmed page would otherwise throw the typed form away.
 */
export function closeOnEscape(onClose: () => void) {
  return (_event: object, reason: 'backdropClick' | 'escapeKeyDown') => {
    if (reason === 'escapeKeyDown') onClose();
  };
}
