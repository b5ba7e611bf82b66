export { Button } from './button.tsx';
export type { ButtonProps } from './button.tsx';
export { RemotePlaceholder } from './remote-placeholder.tsx';
export { Spinner } from './spinner.tsx';
export { TextField, FormAlert } from './text-field.tsx';
export type { TextFieldProps } from './text-field.tsx';
