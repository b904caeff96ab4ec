// The keys of the live signals (docs/decisions/0013-live-updates.md): what a
// page follows to know when to load its data again. A key names what changed,
// never who or how.

/** The LiveSignal class the pages subscribe to. */
export const LIVE_SIGNAL_CLASS = 'LiveSignal';
/** A student was registered, edited, deactivated, reactivated or erased (administrators only). */
export const STUDENTS_SIGNAL = 'students';
/** The centre's holidays changed (everyone's week). */
export const HOLIDAYS_SIGNAL = 'holidays';

/** One batch's timetable changed. */
export function timetableSignal(grade: number, board: string): string {
  return `timetable:${grade}:${board}`;
}
