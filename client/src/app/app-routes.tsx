import { lazy } from 'react';
import { Navigate, Route as RouterRoute, Routes } from 'react-router-dom';
import { Route } from '@tc/domain/routes';
import { SiteLayout } from './site-layout.tsx';

// Route-level code splitting (brief §13): the home page never loads the date
// picker or the data grid.
const HomePage = lazy(() => import('../pages/home/home-page.tsx'));
const RegisterPage = lazy(() => import('../pages/register/register-page.tsx'));
const StudentLoginPage = lazy(() => import('../pages/student-login/student-login-page.tsx'));
const StudentDashboardPage = lazy(() => import('../pages/student-dashboard/student-dashboard-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../pages/forgot-password/forgot-password-page.tsx'));
const AdminLoginPage = lazy(() => import('../pages/admin-login/admin-login-page.tsx'));
const AdminDashboardPage = lazy(() => import('../pages/admin-dashboard/admin-dashboard-page.tsx'));
const ThankYouPage = lazy(() => import('../pages/thank-you/thank-you-page.tsx'));
const NotFoundPage = lazy(() => import('../pages/not-found/not-found-page.tsx'));

/** Every route of seed-spec §2; matching is case-insensitive (react-router's default). */
export function AppRoutes() {
  return (
    <Routes>
      <RouterRoute element={<SiteLayout />}>
        <RouterRoute path={Route.root} element={<HomePage />} />
        <RouterRoute path={Route.home} element={<HomePage />} />
        <RouterRoute path={Route.register} element={<RegisterPage />} />
        <RouterRoute path={Route.studentLogin} element={<StudentLoginPage />} />
        <RouterRoute path={Route.dashboard} element={<StudentDashboardPage />} />
        <RouterRoute path={Route.forgotPassword} element={<ForgotPasswordPage />} />
        <RouterRoute path={Route.adminLogin} element={<AdminLoginPage />} />
        <RouterRoute path={Route.adminDashboard} element={<AdminDashboardPage />} />
        <RouterRoute path={Route.adminDashboardAlias} element={<Navigate to={Route.adminDashboard} replace />} />
        <RouterRoute path={Route.thankYou} element={<ThankYouPage />} />
        <RouterRoute path="*" element={<NotFoundPage />} />
      </RouterRoute>
    </Routes>
  );
}
