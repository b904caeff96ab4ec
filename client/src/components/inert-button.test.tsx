import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { InertButton } from './inert-button.tsx';

function form(inert: boolean) {
  const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
  const onClick = vi.fn();
  render(
    <form onSubmit={onSubmit}>
      <input aria-label="Name" />
      <InertButton type="submit" unavailable={inert} onClick={onClick}>
        Send
      </InertButton>
    </form>,
  );
  return { onSubmit, onClick, button: screen.getByRole('button', { name: 'Send' }) };
}

describe('InertButton', () => {
  it('while inert keeps the focus and sends nothing, by a click, a key or Enter in a field', async () => {
    const user = userEvent.setup();
    const { onSubmit, onClick, button } = form(true);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.type(screen.getByLabelText('Name'), 'Asha{Enter}');
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('otherwise is a plain button', async () => {
    const user = userEvent.setup();
    const { onSubmit, onClick, button } = form(false);
    expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
