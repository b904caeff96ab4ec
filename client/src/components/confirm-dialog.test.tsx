import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

const noop = () => undefined;

describe('ConfirmDialog', () => {
  it('keeps the words it asked with while it closes, though its owner has let the question go', () => {
    const { rerender } = render(
      <ConfirmDialog
        open
        title="Delete this holiday?"
        text="Diwali, 1–3 Nov."
        action="Delete"
        destructive
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    // The owner clears its question at once; the dialog is still fading out (MUI's 195 ms).
    rerender(
      <ConfirmDialog
        open={false}
        title="Remove these rights?"
        text=""
        action="Remove"
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    const closing = screen.getByRole('dialog', { hidden: true });
    expect(closing).toHaveTextContent('Delete this holiday?');
    expect(closing).toHaveTextContent('Diwali, 1–3 Nov.');
    expect(screen.getByRole('button', { name: 'Delete', hidden: true })).toBeInTheDocument();
    expect(closing).not.toHaveTextContent('Remove');
  });

  it('asks with the new words when it opens again', () => {
    const { rerender } = render(
      <ConfirmDialog
        open
        title="Delete this holiday?"
        text="Diwali."
        action="Delete"
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    rerender(<ConfirmDialog open={false} title="" text="" action="" onConfirm={noop} onCancel={noop} />);
    rerender(
      <ConfirmDialog
        open
        title="Publish this assessment?"
        text="Unit test 3."
        action="Publish"
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Publish this assessment?' })).toHaveTextContent('Unit test 3.');
  });

  it("cannot be cancelled while its change runs (the focus would fall to the page's start), and keeps the focus", () => {
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        open
        busy
        title="Deactivate Asha?"
        text="…"
        action="Deactivate"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
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
    const { rerender } = render(
      <ConfirmDialog
        open
        title="Deactivate Asha?"
        text="…"
        action="Deactivate"
        onConfirm={onConfirm}
        onCancel={noop}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    rerender(
      <ConfirmDialog
        open={false}
        title="Deactivate Asha?"
        text="…"
        action="Deactivate"
        onConfirm={onConfirm}
        onCancel={noop}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate', hidden: true }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
