// Business constants of the site.

export const PRODUCT_NAME = 'Guided Learning Tuition Centre';

export const GRADES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export type Grade = (typeof GRADES)[number];

export const BOARDS = ['CBSE', 'ICSE', 'State'] as const;
/** A timetable slot or an assessment is for one board of a grade, or for every board of it. */
export const ALL_BOARDS = 'All' as const;
export const BOARDS_OR_ALL = [...BOARDS, ALL_BOARDS] as const;
export type BoardOrAll = (typeof BOARDS_OR_ALL)[number];
export type Board = (typeof BOARDS)[number];

export const GENDERS = ['Son', 'Daughter'] as const;
export type Gender = (typeof GENDERS)[number];
export const DEFAULT_GENDER: Gender = 'Son';

/** At least 5 years, at most 18, in 365.25-day years. */
export const MIN_AGE_YEARS = 5;
export const MAX_AGE_YEARS = 18;
export const DAYS_PER_YEAR = 365.25;

/** Date picker range. */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2099-12-31';
/** Shown and typed as DD/MM/YYYY, sent as YYYY-MM-DD. */
export const DISPLAY_DATE_FORMAT = 'DD/MM/YYYY';
export const API_DATE_FORMAT = 'YYYY-MM-DD';

export const FULLNAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;
/** bcrypt ignores everything past 72 bytes. */
export const PASSWORD_MAX_BYTES = 72;

/** One-time codes. */
/** The largest request body any call takes (product.md §5: bodies over 100 kB get a 413). */
export const BODY_LIMIT_BYTES = 100 * 1024;

export const OTP_LENGTH = 6;
export const OTP_MIN = 100000;
export const OTP_MAX = 999999;
export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_WRONG_TRIES = 5;
export const OTP_RESEND_COOLDOWN_SECONDS = 30;
export const OTP_MAX_PER_TARGET_PER_HOUR = 5;

export type OtpPurpose = 'register' | 'reset' | 'admin-invite';

/**
 * Failed logins: 5 wrong from one address lock that address
 * out of that account for 15 minutes; 20 failures an hour on one account from
 * anywhere make every further login on it solve a proof-of-work challenge.
 */
export const LOGIN_MAX_WRONG_PASSWORDS = 5;
export const LOGIN_LOCKOUT_MINUTES = 15;
export const LOGIN_SPRAY_THRESHOLD = 20;
export const LOGIN_SPRAY_WINDOW_SECONDS = 3600;
/** ALTCHA: about a second of work on a phone, and 5 minutes to submit it. */
export const LOGIN_CHALLENGE_MAX_NUMBER = 100_000;
export const LOGIN_CHALLENGE_TTL_SECONDS = 300;

/** Longest admin search text: a search is a substring scan. */
export const SEARCH_MAX_LENGTH = 100;

/** Admin listing. */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 500;
/** Any field of a student record (product.md §5: `sort` is `field` or `-field`). */
export const LIST_SORT_FIELDS = [
  'objectId',
  'id',
  'fullname',
  'gender',
  'mobile',
  'email',
  'dob',
  'board',
  'grade',
  'createdAt',
] as const;
export type ListSortField = (typeof LIST_SORT_FIELDS)[number];

/** Storage keys of the browser sessions. */
export const STUDENT_SESSION_KEY = 'userData';
export const ADMIN_SESSION_KEY = 'adminToken';

/**
 * The centre's contact details, shown on /terms, /privacy and in the footer. They
 * are constants, not configuration: the public pages are rendered to HTML when the
 * client is built, before any server configuration exists. Change them here.
 */
export const CENTRE_ADDRESS = '2nd Floor, 14 Residency Road, Bengaluru 560025, India';
export const CENTRE_PHONE = '+91 80 4123 4567';
export const CENTRE_EMAIL = 'hello@guidedlearning.example';

/**
 * A student's History lists at most this many entries, the latest (the Activity page pages
 * through all): no more than one read of Parse answers (its maxLimit, LIST_MAX_LIMIT).
 */
export const HISTORY_MAX_ENTRIES = LIST_MAX_LIMIT;
