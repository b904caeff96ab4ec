import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { Footer } from './footer.tsx';

describe('the footer', () => {
  it('hydrates a page pre-rendered in an earlier year without a mismatch, then says this year', () => {
    const footer = (
      <MemoryRouter>
        <Footer />
      </MemoryRouter>
    );
    // Pre-rendered in the build's year (2020 in these tests: vitest.config.ts).
    const container = document.createElement('div');
    container.innerHTML = renderToString(footer);
    expect(container.textContent).toContain('© 2020 ');
    // A mismatch would be a recoverable error, and a console.error (which fails any test: test/setup.ts).
    vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', true);
    const recoverable = vi.fn();
    act(() => {
      hydrateRoot(container, footer, { onRecoverableError: recoverable });
    });
    expect(container.textContent).toContain(`© ${new Date().getFullYear()} `);
    expect(recoverable).not.toHaveBeenCalled();
  });
});
