// JSON Schemas of what travels on the wire. They are the documentation (the
// OpenAPI document embeds them as they are) and, through json-schema-to-ts, the
// TypeScript types of the client: one declaration for both. They describe; the
// cloud code's rules in domain/ decide what is accepted.

import { BOARDS, GENDERS, GRADES, LIST_MAX_LIMIT, LIST_SORT_FIELDS } from '../constants.ts';

export const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;

/** Builds `{type: 'object', properties, required}` keeping the literal types. */
export function object<const P extends Record<string, unknown>, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
) {
  return {
    type: 'object',
    properties,
    required: (required ?? []) as unknown as R,
    additionalProperties: false,
  } as const;
}

export const success = object({ success: { const: true } }, ['success']);

const grade = { type: 'integer', enum: GRADES } as const;
const board = { type: 'string', enum: BOARDS } as const;
const gender = { type: 'string', enum: GENDERS } as const;
const isoDate = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;

export const studentProfile = object(
  {
    fullname: str,
    email: str,
    mobile: { type: 'string', description: '10 digits' },
    board,
    grade,
    gender,
    dob: isoDate,
    id: { type: 'integer', description: 'The enrollment number' },
  },
  ['fullname', 'email', 'mobile', 'board', 'grade', 'gender', 'dob', 'id'],
);

export const studentRecord = object(
  {
    ...studentProfile.properties,
    objectId: str,
    createdAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['active', 'deactivated'], description: 'Missing means active' },
    erased: { type: 'boolean', description: 'The personal data has been erased' },
  },
  [...studentProfile.required, 'objectId', 'createdAt'],
);

export const registration = object(
  {
    fullname: str,
    email: str,
    mobile: { type: 'string', description: 'An Indian mobile number: 9876543210, 09876543210 or +91 98765 43210' },
    password: { type: 'string', minLength: 8, maxLength: 64 },
    cnfpassword: str,
    dob: isoDate,
    gender,
    grade: { description: 'A number 1-9, or "3rd"', oneOf: [grade, str] },
    board,
    tmc: { const: true, description: 'The terms and conditions were accepted' },
    otp: { type: 'string', description: 'The 6-digit code texted by send-sms' },
  },
  ['fullname', 'email', 'mobile', 'password', 'cnfpassword', 'dob', 'gender', 'grade', 'board', 'tmc', 'otp'],
);

export const studentListQuery = object({
  skip: { ...int, minimum: 0, default: 0 },
  limit: { ...int, minimum: 1, maximum: LIST_MAX_LIMIT, default: 50 },
  q: { type: 'string', description: 'Name, e-mail or mobile contains' },
  sort: {
    type: 'string',
    description: `One of ${LIST_SORT_FIELDS.join(', ')}; a leading - sorts descending`,
  },
  grade,
  board,
  status: {
    type: 'string',
    enum: ['active', 'deactivated', 'all'],
    description: 'active (the default), deactivated or all',
  },
});

export const studentChanges = object({
  objectId: { type: 'string', description: 'In the path' },
  gender,
  mobile: str,
  email: str,
  dob: isoDate,
  board,
  grade,
});

export const exists = object({ exists: bool }, ['exists']);
export const messageId = object({ messageId: str }, ['messageId']);
