/**
 * The spec's isSubmitting flag for a form: set on submit, cleared on failure or completion, and
 * a second submit while one runs is ignored (a double click must not register twice).
 */
import { useCallback, useRef, useState } from 'react';
import { noErrors, type FormErrors } from './formErrors.js';

export interface Submission<F extends string> {
  isSubmitting: boolean;
  errors: FormErrors<F>;
  setErrors(errors: FormErrors<F>): void;
  /** Runs `task`; its result (errors, or null on success) becomes the form's errors. */
  run(task: () => Promise<FormErrors<F> | null>): Promise<void>;
}

export function useSubmission<F extends string>(): Submission<F> {
  const [isSubmitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<FormErrors<F>>(noErrors);
  const running = useRef(false);

  const run = useCallback(async (task: () => Promise<FormErrors<F> | null>) => {
    if (running.current) return;
    running.current = true;
    setSubmitting(true);
    setErrors(noErrors);
    try {
      setErrors((await task()) ?? noErrors);
    } finally {
      running.current = false;
      setSubmitting(false);
    }
  }, []);

  return { isSubmitting, errors, setErrors, run };
}
