/**
 * Moves focus to the named control of a form (or to the element with that id, such
 * as the form's message), after React has shown its error.
 */
export function focusField(form: HTMLFormElement | null, name: string): void {
  window.requestAnimationFrame(() => {
    if (!form) return;
    let control: unknown = form.elements.namedItem(name);
    // A radio group: its checked radio, or its first.
    if (control instanceof RadioNodeList) control = [...control].find((r) => r.checked) ?? control[0];
    if (!(control instanceof HTMLElement)) control = form.ownerDocument.getElementById(name);
    // A select list (MUI's Select) or a date (MUI X's sectioned field): the named input
    // is hidden; the list's button, or the date's first section, takes the focus.
    if (control instanceof HTMLElement && control.getAttribute('aria-hidden') === 'true') {
      control = control.parentElement?.querySelector('[role="combobox"], [role="spinbutton"]') ?? control;
    }
    if (control instanceof HTMLElement) control.focus();
  });
}

/** Time enough for a confirming dialog to close and give the focus back to the button that opened it. */
const AFTER_DIALOG_MS = 100;

/**
 * Moves focus to a place that stays (a section's heading) once a confirmed change has taken
 * away the button that asked (a deleted holiday's Delete): the dialog gives the focus back
 * to that button, and with it gone the focus would fall to the page's start.
 */
export function focusAfterDialog(target: () => HTMLElement | null | undefined): void {
  window.setTimeout(() => target()?.focus(), AFTER_DIALOG_MS);
}

/**
 * Once a dialog has closed and given the focus back to the button that opened it: if that
 * button has gone meanwhile (another admin's change took its row away), the focus, fallen to
 * the page's start, goes where `move` puts it.
 */
export function ifFocusLostAfterDialog(move: () => void): void {
  window.setTimeout(() => {
    if (focusLost()) move();
  }, AFTER_DIALOG_MS);
}

/** The focused element has gone from the page (or none had the focus): the focus fell to its start. */
export function focusLost(): boolean {
  return !document.activeElement || document.activeElement === document.body;
}

/** Longer than a list's own move of the focus after a reload (the data grid's: a debounced update, then a render). */
const AFTER_RELOAD_MS = 300;

/**
 * Called as a reload's answer replaces a list: if that takes the focus from the focused
 * element (its row has left the view, an edit moved its card, and a moved element loses the
 * focus too), the focus, fallen to the page's start, goes back to the same control where the
 * list shows it now (the one of the same `data-focus-key`: an edited class's Edit button on
 * its new day), else where `moveFocus` puts it. Never taken from where the user has put it
 * since, nor from where the list itself has moved it.
 */
export function focusIfReloadTakesIt(moveFocus: () => void): void {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || focusLost()) return;
  const key = focused.dataset.focusKey;
  window.setTimeout(() => {
    if (!focusLost()) return;
    const keyed = [...document.querySelectorAll<HTMLElement>('[data-focus-key]')].find(
      (element) => key !== undefined && element.dataset.focusKey === key,
    );
    (keyed ?? (focused.isConnected ? focused : null))?.focus();
    // Nothing of the kind, or it could not take the focus (hidden).
    if (focusLost()) moveFocus();
  }, AFTER_RELOAD_MS);
}
