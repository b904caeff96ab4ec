// The site's routes, shared by the client router and the server,
// which answers 404 for any other path while still serving the client's 404 page.

export const Route = {
  root: '/',
  home: '/home',
  register: '/registeruser',
  studentLogin: '/studentlogin',
  dashboard: '/dashboard',
  /** The student's published marks, averages and charts. */
  progress: '/dashboard/progress',
  forgotPassword: '/forgotpassword',
  adminLogin: '/adminlogin',
  /** Spelt so. */
  adminDashboard: '/admindashborad',
  /** The weekly timetables of the batches and the holidays. */
  adminTimetable: '/admindashborad/timetable',
  /** Redirects to adminDashboard. */
  adminDashboardAlias: '/admindashboard',
  thankYou: '/thank-you',
  adminAssessments: '/admin/assessments',
  terms: '/terms',
  privacy: '/privacy',
  /** Admin tools. */
  adminActivity: '/admin/activity',
  adminAdmins: '/admin/admins',
  adminAcceptInvite: '/admin/accept-invite',
} as const;

/**
 * The seed's spelling of the links to two routes ("Register now" goes
 * to /Registeruser, "Home" to /Home): routes match case-insensitively, and links
 * keep the spelling people and outside tests know.
 */
export const LinkTo = {
  home: '/Home',
  register: '/Registeruser',
} as const;

const KNOWN = new Set<string>(Object.values(Route));

const canonical = (pathname: string) => pathname.toLowerCase().replace(/\/+$/, '') || '/';

/** Routes match case-insensitively, with or without a trailing slash. */
export function isKnownRoute(pathname: string): boolean {
  return KNOWN.has(canonical(pathname));
}

/** Where an old or misspelt address leads (the server answers it with a redirect, the client's router too). */
export const REDIRECTS: ReadonlyMap<string, string> = new Map([[Route.adminDashboardAlias, Route.adminDashboard]]);

/** The route a path redirects to, whatever its case or trailing slash; undefined when it is no alias. */
export function redirectOf(pathname: string): string | undefined {
  return REDIRECTS.get(canonical(pathname));
}

/**
 * The pages the client build renders to HTML ahead of time: the public ones,
 * which look the same for everybody. The dashboards depend on who is logged in.
 */
export const PRERENDERED_ROUTES: readonly string[] = [
  Route.root,
  Route.home,
  Route.register,
  Route.studentLogin,
  Route.forgotPassword,
  Route.adminLogin,
  Route.thankYou,
  Route.terms,
  Route.privacy,
];

/** The file, inside the client build, that holds a route's pre-rendered page. */
export function prerenderedFile(pathname: string): string | undefined {
  const path = canonical(pathname);
  if (!PRERENDERED_ROUTES.includes(path)) return undefined;
  return `prerendered/${path === '/' ? 'index' : path.slice(1)}.html`;
}
