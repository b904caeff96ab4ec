/**
 * A form dialog's `onClose`: Escape and Cancel close it, a tap beside it does not. On a
 * phone a stray tap on the dimmed page would otherwise throw the typed form away. While
 * its save runs (`saving`) nothing closes it: the save would be made all the same, unseen.
 */
export function closeOnEscape(onClose: () => void, saving = false) {
  return saving
    ? undefined
    : (_event: object, reason: 'backdropClick' | 'escapeKeyDown') => {
        if (reason === 'escapeKeyDown') onClose();
      };
}
