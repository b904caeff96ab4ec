// Wire shapes of the admin tools: activity entries, status,
// erasure and administrator accounts.

import {
  ACTIVITY_DEFAULT_LIMIT,
  ACTIVITY_KINDS,
  ACTIVITY_MAX_LIMIT,
  ACTIVITY_STATES,
  STUDENT_STATUSES,
} from '../admin-tools.ts';
import { altcha, object, oneTimeCode, str } from './shapes.ts';

const int = { type: 'integer' } as const;
const day = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;

export const activityChange = object(
  {
    field: str,
    before: { type: 'string', description: 'As text; "" when there was none, "[erased]" once its student is erased' },
    after: str,
  },
  ['field', 'before', 'after'],
);

export const activityEntry = object(
  {
    objectId: str,
    at: { type: 'string', format: 'date-time' },
    adminId: str,
    adminEmail: str,
    kind: { type: 'string', enum: ACTIVITY_KINDS },
    targetClass: str,
    targetId: str,
    enrollmentId: { ...int, description: "The student's enrollment number, for student changes" },
    target: {
      ...str,
      description:
        'What the entry is about, as the admin screens name it ("Mathematics: Unit Test 3 (5th CBSE)"), for an assessment, a class or a holiday; one deleted since is named as its deletion\'s entry says it was (the Activity page; in a student\'s History, the assessment of a marks entry)',
    },
    changes: { type: 'array', items: activityChange },
    state: {
      type: 'string',
      enum: ACTIVITY_STATES,
      description: 'pending: written before its change, which has not settled (yet, or ever)',
    },
  },
  ['objectId', 'at', 'adminId', 'adminEmail', 'kind', 'targetClass', 'targetId', 'changes', 'state'],
);

export const activityAdmin = object(
  {
    objectId: { ...str, description: 'The `admin` filter of GET /api/activity' },
    email: str,
    current: { type: 'boolean', description: 'Whether the account has administrator rights now' },
  },
  ['objectId', 'email', 'current'],
);

export const activityQuery = object({
  skip: { ...int, minimum: 0, default: 0 },
  limit: { ...int, minimum: 1, maximum: ACTIVITY_MAX_LIMIT, default: ACTIVITY_DEFAULT_LIMIT },
  admin: { type: 'string', description: "An administrator's objectId" },
  kind: { type: 'string', enum: ACTIVITY_KINDS },
  from: { ...day, description: "From this day, YYYY-MM-DD, in the centre's time zone (CENTRE_TIMEZONE)" },
  to: { ...day, description: "To this day included, YYYY-MM-DD, in the centre's time zone (CENTRE_TIMEZONE)" },
});

export const statusChange = object(
  { objectId: { type: 'string', description: 'In the path' }, status: { type: 'string', enum: STUDENT_STATUSES } },
  ['status'],
);

export const erasure = object(
  {
    objectId: { type: 'string', description: 'In the path' },
    confirm: { type: 'string', description: 'The word ERASE, typed by the administrator' },
  },
  ['confirm'],
);

export const adminAccount = object(
  {
    objectId: {
      type: 'string',
      description: "An administrator's account, or an invitation's own id (the account is made when it is accepted)",
    },
    name: str,
    email: str,
    self: { type: 'boolean', description: 'The caller' },
    invitedUntil: {
      type: 'string',
      format: 'date-time',
      description: 'Only on an invitation not yet accepted (no rights yet): when its code expires',
    },
    blocked: {
      type: 'boolean',
      description: 'Only on an invitation whose code was mistyped five times: it works no more; invite again',
    },
  },
  ['objectId', 'name', 'email', 'self'],
);

export const invitation = object({ email: str, name: str }, ['email', 'name']);

export const acceptInvitation = object(
  {
    email: str,
    otp: oneTimeCode('The 6-digit code of the invitation mail'),
    password: { type: 'string', minLength: 8, maxLength: 64 },
  },
  ['email', 'otp', 'password'],
);

export const passwordChange = object(
  { currentPassword: str, newPassword: { type: 'string', minLength: 8, maxLength: 64 }, altcha },
  ['currentPassword', 'newPassword'],
);
