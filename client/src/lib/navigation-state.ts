/** What the registration tells the thank-you page on the way there (history state). */
export interface ThankYouState {
  enrollmentId: number;
}
