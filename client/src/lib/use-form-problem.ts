import { useCallback, useId, useRef, useState } from 'react';
import { focusField } from './focus-field.ts';
import { notify } from './notify.ts';

/** What went wrong: under a field when one is named, else above the form's button. */
export interface FormProblem<F extends string> {
  field: F | null;
  message: string;
  /**
   * The id of the form-level message, which takes the focus when no field is to blame: one
   * of each form (a page with two forms, each with its message, focused the first's).
   */
  id: string;
}

/**
 * The problem / busy / focus logic every form shares. `fail` shows the message as a
 * toast and on the form (it stays until the user changes something), and moves focus
 * to the field named, or to the form's message when no field is.
 */
export function useFormProblem<F extends string>(fields: readonly F[]) {
  const formRef = useRef<HTMLFormElement>(null);
  const messageId = useId();
  const [problem, setProblem] = useState<FormProblem<F> | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  const fail = useCallback(
    (message: string, field?: string | null) => {
      const named = fields.find((f) => f === field) ?? null;
      setProblem({ field: named, message, id: messageId });
      notify.error(message);
      focusField(formRef.current, named ?? messageId);
    },
    // The list of fields is a constant of each form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  /** Called as the user changes a field: its message (or the form's) goes away. */
  const changed = useCallback((field: F) => {
    setProblem((current) => (current && (current.field === field || current.field === null) ? null : current));
  }, []);

  /** The problem is over (a code was sent after it): its messages go. */
  const clearProblem = useCallback(() => setProblem(null), []);

  /** Runs one submission at a time, with the button busy meanwhile. */
  const run = useCallback(async (task: () => Promise<unknown>) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await task();
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }, []);

  const fieldProps = (field: F) => ({
    error: problem?.field === field,
    helperText: problem?.field === field ? problem.message : undefined,
  });

  return { formRef, problem, setProblem, clearProblem, fail, changed, run, busy, fieldProps };
}
