import { fireEvent, render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

const noop = () => undefined;

/** The dialog asking to deactivate Asha, open and idle unless `props` say otherwise. */
function question(props: Partial<ComponentProps<typeof ConfirmDialog>> = {}) {
  return (
    <ConfirmDialog
      open
      title="Deactivate Asha?"
      text="…"
      action="Deactivate"
      onConfirm={noop}
      onCancel={noop}
      {...props}
    />
  );
}

describe('ConfirmDialog', () => {
  it('keeps the words it asked with while it closes, though its owner has let the question go', () => {
    const { rerender } = render(
      question({ title: 'Delete this holiday?', text: 'Diwali, 1–3 Nov.', action: 'Delete', destructive: true }),
    );
    // The owner clears its question at once; the dialog is still fading out (MUI's 195 ms).
    rerender(question({ open: false, title: 'Remove these rights?', text: '', action: 'Remove' }));
    const closing = screen.getByRole('dialog', { hidden: true });
    expect(closing).toHaveTextContent('Delete this holiday?');
    expect(closing).toHaveTextContent('Diwali, 1–3 Nov.');
    expect(screen.getByRole('button', { name: 'Delete', hidden: true })).toBeInTheDocument();
    expect(closing).not.toHaveTextContent('Remove');
  });

  it('asks with the new words when it opens again', () => {
    const { rerender } = render(question({ title: 'Delete this holiday?', text: 'Diwali.', action: 'Delete' }));
    rerender(question({ open: false, title: '', text: '', action: '' }));
    rerender(question({ title: 'Publish this assessment?', text: 'Unit test 3.', action: 'Publish' }));
    expect(screen.getByRole('dialog', { name: 'Publish this assessment?' })).toHaveTextContent('Unit test 3.');
  });

  it("cannot be cancelled while its change runs (the focus would fall to the page's start), and keeps the focus", () => {
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    render(question({ busy: true, onConfirm, onCancel }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate Asha?' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    fireEvent.click(cancel);
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    expect(onCancel).not.toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
    // Inert, not disabled: a disabled button would drop the focus.
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    expect(cancel).not.toBeDisabled();
    expect(cancel).toHaveFocus();
  });

  it('answers no click while it fades out: a second Deactivate sends nothing', () => {
    const onConfirm = vi.fn();
    const { rerender } = render(question({ onConfirm }));
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    rerender(question({ open: false, onConfirm }));
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate', hidden: true }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
