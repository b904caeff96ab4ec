import { lazy, type ComponentType } from 'react';
import { Navigate, Route as RouterRoute, Routes } from 'react-router-dom';
import { REDIRECTS, Route } from '@tc/domain/routes';
import { SiteLayout } from './site-layout.tsx';

type Module = { default: ComponentType };
type Loader = () => Promise<Module>;

/**
 * A lazily loaded screen whose code can also be asked for ahead of rendering. Once
 * loaded, it renders at once instead of suspending (React.lazy takes a thenable that
 * resolves synchronously), so a pre-rendered page is taken over in one pass.
 */
function screen(load: Loader) {
  let loaded: Module | undefined;
  let loading: Promise<Module> | undefined;
  const preload = (): Promise<Module> =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const alreadyLoaded = (module: Module) => ({ then: (resolve: (value: Module) => void) => resolve(module) });
  const component = lazy(() => (loaded ? (alreadyLoaded(loaded) as unknown as Promise<Module>) : preload()));
  return Object.assign(component, { preload });
}

// Route-level code splitting (brief §13): the home page never loads MUI, the
// date picker or the data grid.
const HomePage = screen(() => import('../pages/home/home-page.tsx'));
const MuiLayout = screen(() => import('./mui-layout.tsx'));
const RegisterPage = screen(() => import('../pages/register/register-page.tsx'));
const StudentLoginPage = screen(() => import('../pages/student-login/student-login-page.tsx'));
const StudentDashboardPage = screen(() => import('../pages/student-dashboard/student-dashboard-page.tsx'));
const ForgotPasswordPage = screen(() => import('../pages/forgot-password/forgot-password-page.tsx'));
const AdminLoginPage = screen(() => import('../pages/admin-login/admin-login-page.tsx'));
const StudentProgressPage = screen(() => import('../pages/student-progress/student-progress-page.tsx'));
const AdminAssessmentsPage = screen(() => import('../pages/admin-assessments/admin-assessments-page.tsx'));
const AdminDashboardPage = screen(() => import('../pages/admin-dashboard/admin-dashboard-page.tsx'));
const AdminTimetablePage = screen(() => import('../pages/admin-timetable/admin-timetable-page.tsx'));
// Admin tools.
const AdminActivityPage = screen(() => import('../pages/admin-activity/admin-activity-page.tsx'));
const AdminAdminsPage = screen(() => import('../pages/admin-admins/admin-admins-page.tsx'));
const AcceptInvitePage = screen(() => import('../pages/admin-accept-invite/accept-invite-page.tsx'));
const ThankYouPage = screen(() => import('../pages/thank-you/thank-you-page.tsx'));
const TermsPage = screen(() => import('../pages/legal/terms-page.tsx'));
const PrivacyPage = screen(() => import('../pages/legal/privacy-page.tsx'));
const NotFoundPage = screen(() => import('../pages/not-found/not-found-page.tsx'));

const SCREENS: Record<string, ReturnType<typeof screen>> = {
  [Route.root]: HomePage,
  [Route.home]: HomePage,
  [Route.register]: RegisterPage,
  [Route.studentLogin]: StudentLoginPage,
  [Route.dashboard]: StudentDashboardPage,
  [Route.forgotPassword]: ForgotPasswordPage,
  [Route.adminLogin]: AdminLoginPage,
  [Route.adminDashboard]: AdminDashboardPage,
  [Route.progress]: StudentProgressPage,
  [Route.adminAssessments]: AdminAssessmentsPage,
  [Route.adminTimetable]: AdminTimetablePage,
  [Route.thankYou]: ThankYouPage,
  [Route.terms]: TermsPage,
  [Route.privacy]: PrivacyPage,
  [Route.adminActivity]: AdminActivityPage,
  [Route.adminAdmins]: AdminAdminsPage,
  [Route.adminAcceptInvite]: AcceptInvitePage,
};

const WITHOUT_MUI = new Set([HomePage, TermsPage, PrivacyPage]);

/**
 * Loads the code of the screen at `pathname` and of its layout at once, instead of
 * one after the other as rendering discovers them.
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  const page = SCREENS[pathname.toLowerCase().replace(/\/+$/, '') || '/'];
  // The home page and the legal texts are plain HTML: they never load MUI.
  const codes = page && WITHOUT_MUI.has(page) ? [page] : [MuiLayout, page ?? NotFoundPage];
  return Promise.all(codes.map((code) => code.preload()));
}

/** A route of the table above. */
const routesOf = (entries: [string, ReturnType<typeof screen>][]) =>
  entries.map(([path, Page]) => <RouterRoute key={path} path={path} element={<Page />} />);

/** Every route of the site, from the table above; matching is case-insensitive (react-router's default). */
export function AppRoutes() {
  const routes = Object.entries(SCREENS);
  return (
    <Routes>
      <RouterRoute element={<SiteLayout />}>
        {routesOf(routes.filter(([, Page]) => WITHOUT_MUI.has(Page)))}
        {[...REDIRECTS].map(([from, to]) => (
          <RouterRoute key={from} path={from} element={<Navigate to={to} replace />} />
        ))}
        <RouterRoute element={<MuiLayout />}>
          {routesOf(routes.filter(([, Page]) => !WITHOUT_MUI.has(Page)))}
          <RouterRoute path="*" element={<NotFoundPage />} />
        </RouterRoute>
      </RouterRoute>
    </Routes>
  );
}
