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

/** Where a student goes after logging in: back to the page that asked, if it is a student page; else the dashboard. */
export function studentLandingOf(state: unknown, studentPages: readonly string[], dashboard: string): string {
  const from = (state as Partial<LoginReturnState> | null)?.from;
  return typeof from === 'string' && studentPages.includes(from) ? from : dashboard;
}
