import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { currentPath, renderApp } from '../../test/render-app.tsx';

describe('home page', () => {
  it('shows the heading, the three cards and their links', async () => {
    renderApp('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Guided Learning for Grades 1-9' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Student Registration' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Already Registered? Log In to Your Account' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Admin Access for Managing Students' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register Now' })).toHaveAttribute('href', '/Registeruser');
    expect(screen.getByRole('link', { name: 'Student Login' })).toHaveAttribute('href', '/studentlogin');
    expect(screen.getByRole('link', { name: 'Admin Login' })).toHaveAttribute('href', '/adminlogin');
  });

  it('has the header, the footer and a decorative canvas hidden from assistive technology', async () => {
    const { container } = renderApp('/home');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('link', { name: 'Enroll Now' })).toHaveAttribute('href', '/Registeruser');
    expect(screen.getByRole('link', { name: `${PRODUCT_NAME} home` })).toHaveAttribute('href', '/Home');
    expect(screen.getByText(PRODUCT_NAME)).toBeInTheDocument();
    expect(screen.getByText(`© ${new Date().getFullYear()} ${PRODUCT_NAME}. All rights reserved`)).toBeInTheDocument();
    expect(container.querySelector('canvas')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText(/tuition classes for grade 1/i)).toBeInTheDocument();
  });

  it('matches routes case-insensitively', async () => {
    renderApp('/Home');
    expect(await screen.findByRole('heading', { name: 'Guided Learning for Grades 1-9' })).toBeInTheDocument();
  });

  it('goes to registration from "Register Now"', async () => {
    const { user } = renderApp('/home');
    await user.click(await screen.findByRole('link', { name: 'Register Now' }));
    expect(await screen.findByRole('button', { name: 'Send OTP' }, { timeout: 15000 })).toBeInTheDocument();
    expect(currentPath()).toBe('/Registeruser');
  });
});
