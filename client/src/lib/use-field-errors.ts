import { useRef, useState } from 'react';
import type { FieldProblems } from '@tc/domain/field-problems';
import { focusField } from './focus-field.ts';

/**
 * The errors of an admin's form, each under its field: all the form's problems at once
 * (domain/field-problems.ts), focus on the first; a field's error goes as it changes.
 * `blank` is the helper text of a field without an error (' ' keeps its line).
 */
export function useFieldErrors<F extends string>(blank?: string) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldProblems<F>>({});

  const show = (problems: FieldProblems<F>) => {
    setErrors(problems);
    const first = Object.keys(problems)[0];
    if (first) focusField(formRef.current, first);
  };

  const clear = (field: F) =>
    setErrors((all) => {
      if (!(field in all)) return all;
      const rest = { ...all };
      delete rest[field];
      return rest;
    });

  const errorProps = (field: F) => ({ error: Boolean(errors[field]), helperText: errors[field] ?? blank });

  return { formRef, show, clear, errorProps };
}
