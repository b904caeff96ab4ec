import { Route } from '@tc/domain/routes';

/** What the registration tells the thank-you page on the way there (history state). */
export interface ThankYouState {
  enrollmentId: number;
}

/**
 * What a student page tells the login page when it sends a visitor without a session there
 * (history state): the page to go back to once logged in, e.g. the progress page a marks
 * mail links to, opened in a new tab.
 */
export interface LoginReturnState {
  from: string;
}

/** The student pages a login goes back to (a LoginReturnState's `from`); any other goes to the dashboard. */
const RETURN_PAGES: readonly string[] = [Route.dashboard, Route.progress];

/** Where a student goes after logging in: back to the student page that asked, else the dashboard. */
export function studentLandingOf(state: unknown): string {
  const from = (state as Partial<LoginReturnState> | null)?.from;
  return typeof from === 'string' && RETURN_PAGES.includes(from) ? from : Route.dashboard;
}
