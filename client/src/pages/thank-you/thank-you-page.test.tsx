import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';

describe('thank-you page', () => {
  it('thanks the user and offers Login and Home', async () => {
    const { container } = renderApp('/thank-you');
    expect(await screen.findByRole('heading', { name: 'Thank You!!' })).toBeInTheDocument();
    expect(screen.getByText(/confirmation e-mail/i)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/studentlogin');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/Home');
    expect(container.querySelector('canvas[aria-hidden="true"]')).not.toBeNull();
  });
});
