// The site's routes (seed-spec §2), shared by the client router and the server,
// which answers 404 for any other path while still serving the client's 404 page.

export const Route = {
  root: '/',
  home: '/home',
  register: '/registeruser',
  studentLogin: '/studentlogin',
  dashboard: '/dashboard',
  forgotPassword: '/forgotpassword',
  adminLogin: '/adminlogin',
  /** Spelt so (product.md §7). */
  adminDashboard: '/admindashborad',
  /** Redirects to adminDashboard. */
  adminDashboardAlias: '/admindashboard',
  thankYou: '/thank-you',
} as const;

const KNOWN = new Set<string>(Object.values(Route));

/** Routes match case-insensitively, with or without a trailing slash. */
export function isKnownRoute(pathname: string): boolean {
  const path = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return KNOWN.has(path);
}
