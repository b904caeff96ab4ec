import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '../../test/render-app.tsx';

describe('404 page', () => {
  it('shows "Page not found" and a Home link for an unknown path', async () => {
    const { user } = renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    const home = screen.getByRole('link', { name: 'Home' });
    expect(home).toHaveAttribute('href', '/home');
    await user.click(home);
    expect(await screen.findByRole('heading', { name: 'Guided Learning for Grades 1-9' })).toBeInTheDocument();
    expect(currentPath()).toBe('/home');
  });

  it('redirects /admindashboard to /admindashborad (and on to the login without a token)', async () => {
    renderApp('/admindashboard');
    expect(await screen.findByRole('heading', { name: 'Manage Student Records' })).toBeInTheDocument();
    expect(currentPath()).toBe('/adminlogin');
  });
});
