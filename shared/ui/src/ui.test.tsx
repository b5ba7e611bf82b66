import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Button, RemotePlaceholder, Spinner } from './index.ts';

afterEach(cleanup);

describe('ui primitives', () => {
  it('Button is a real button, type=button by default, and clickable from the keyboard role', () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.getAttribute('type')).toBe('button');
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('Spinner announces its label as a status', () => {
    render(<Spinner label="Loading…" />);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
  });

  it('RemotePlaceholder labels its section by its heading', () => {
    render(<RemotePlaceholder title="Image" lead="Your images." builtBy="image 1.0.0" />);
    expect(screen.getByRole('region', { name: 'Image' })).toBeTruthy();
    expect(screen.getByTestId('remote-build').textContent).toBe('image 1.0.0');
  });
});
