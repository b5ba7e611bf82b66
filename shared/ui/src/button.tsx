import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'default';
}

export function Button({ variant = 'default', className, type = 'button', ...rest }: ButtonProps) {
  const cls = [styles.button, variant === 'primary' ? styles.primary : '', className ?? ''].filter(Boolean).join(' ');
  return <button type={type} className={cls} {...rest} />;
}
