// The subjects the centre teaches: one list for the timetable and the assessments.

export const SUBJECTS = [
  'Mathematics',
  'Science',
  'English',
  'Hindi',
  'Social Studies',
  'Environmental Studies',
  'Computer Science',
] as const;
export type Subject = (typeof SUBJECTS)[number];
