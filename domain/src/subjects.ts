export const SUBJECTS = [
  'Mathematics',
  'Science',
  'English',
  'Hindi',
  'Social Studies',
  'Environmental Studies',
  'Computer Science',
] as const;
