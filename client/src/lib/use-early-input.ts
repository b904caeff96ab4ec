import { useLayoutEffect, type RefObject } from 'react';

/** A field's name and what was typed, picked or ticked into it. */
export type EarlyInput = (name: string, value: string | boolean) => void;

/**
 * A pre-rendered form can be typed into before its scripts have run. React takes
 * the page over keeping what the fields show, but the form's state does not know
 * it: the next render would wipe it, and submitting would not see it. This reads
 * the form's fields once, as React takes it over, and hands each one that differs
 * from what was rendered to `apply` (issue 13, item 19). A field drawn by the
 * browser (not taken over) never differs, so nothing happens then.
 */
export function useEarlyInput(formRef: RefObject<HTMLFormElement | null>, apply: EarlyInput): void {
  // A layout effect: it runs in the same task as the takeover, before the browser
  // paints again and before any other render could reset a field.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const element of Array.from(form.elements)) {
      if (element instanceof HTMLInputElement && element.name) {
        if (element.type === 'checkbox') {
          if (element.checked !== element.defaultChecked) apply(element.name, element.checked);
        } else if (element.type === 'radio') {
          if (element.checked && !element.defaultChecked) apply(element.name, element.value);
        } else if (element.value !== element.defaultValue) apply(element.name, element.value);
      } else if (element instanceof HTMLSelectElement && element.name) {
        const rendered = Array.from(element.options).find((option) => option.defaultSelected) ?? element.options[0];
        if (element.value !== (rendered?.value ?? '')) apply(element.name, element.value);
      }
    }
    // Once, when the form is taken over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
