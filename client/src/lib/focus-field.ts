/** Moves focus to the named control of a form, after React has shown its error. */
export function focusField(form: HTMLFormElement | null, name: string): void {
  window.requestAnimationFrame(() => {
    const control = form?.elements.namedItem(name);
    if (control instanceof HTMLElement) control.focus();
  });
}
