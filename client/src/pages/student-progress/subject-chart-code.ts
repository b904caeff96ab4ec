/** The charts' code, as the page fetches it (a module of its own, so that a test can refuse it). */
export const loadSubjectChart = () => import('./subject-chart.tsx');
