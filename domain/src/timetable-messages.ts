// The study schedule's messages: slot and holiday rules, and the timetable screens' toasts.
// Apart from messages.ts: the public forms' code need not carry them.

import { QUERY_YEARS } from './dates.ts';

/** The study schedule: slot and holiday rules, and the toasts of the timetable screens. */
export const TimetableMessage = {
  /** The student's dashboard, when the week's timetable did not come. */
  scheduleNotLoaded: 'Your timetable could not be loaded.',
  gradeRequired: 'Pick a grade from 1 to 9',
  boardInvalid: 'Pick a board (CBSE, ICSE, State) or All boards',
  subjectInvalid: 'Pick a subject from the list',
  weekdayInvalid: 'Pick a day of the week',
  startInvalid: 'Enter the start time as HH:mm (24 hours), e.g. 18:00',
  durationInvalid: 'The duration must be a whole number of minutes from 15 to 180',
  endsAfterMidnight: 'The class must end by midnight',
  teacherRequired: "Enter the teacher's name",
  teacherControlCharacters: "The teacher's name must not contain control characters or direction marks",
  teacherTooLong: "The teacher's name must be at most 60 characters",
  linkInvalid: 'The class link must be an https:// address',
  clash: (other: string) => `This slot overlaps ${other}`,
  slotNotFound: 'This timetable slot no longer exists',
  slotChangedMeanwhile: 'Someone has just changed this class: nothing was saved. Reload the timetable and try again',
  holidayTitleRequired: 'Enter a title for the holiday',
  holidayTitleControlCharacters: 'The holiday title must not contain control characters or direction marks',
  holidayTitleTooLong: 'The holiday title must be at most 80 characters',
  holidayFromInvalid: 'Enter a valid first day for the holiday',
  holidayToInvalid: 'Enter a valid last day, or leave it empty for one day',
  holidayToBeforeFrom: 'The last day must be on or after the first day',
  holidayTooLong: 'A holiday can last at most 120 days',
  holidayNotFound: 'This holiday no longer exists',
  holidayDuplicate: 'This holiday is in the list already, with the same title and days',
  weekInvalid: `week must be a date as YYYY-MM-DD, from ${QUERY_YEARS.first} to ${QUERY_YEARS.last}`,
  slotCreated: 'Class added to the timetable',
  slotUpdated: 'Class updated',
  slotDeleted: 'Class deleted',
  holidayCreated: 'Holiday added',
  holidayDeleted: 'Holiday deleted',
  /** Asked before a holiday whose last day has gone by is added (a typed year, most often). */
  holidayPastTitle: 'Add a holiday that is over?',
  holidayPast: (title: string, days: string) =>
    `${title}, ${days}: these days have gone by, so no class changes. Check the year, or add it to the list as it is.`,
  feedReset: 'New calendar link made: the old one no longer works',
  linkCopied: 'Link copied',
} as const;
