import { useId, type InputHTMLAttributes } from 'react';
import styles from './form.module.css';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Already-translated message shown under the field and announced. */
  error?: string | null;
  hint?: string;
}

/** A labelled input whose error is tied to it for assistive technology. */
export function TextField({ label, error, hint, id, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const described = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={described} {...rest} />
      {hint ? (
        <small id={`${inputId}-hint`} className={styles.hint}>
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${inputId}-error`} className={styles.error}>
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** A form-level error (from the API), announced when it appears. */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className={styles.alert}>
      {message}
    </p>
  );
}
