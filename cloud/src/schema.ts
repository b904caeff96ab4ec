// Schema as code: classes, fields, class-level permissions and indexes, applied
// by Parse Server at start-up (its `schema` option). Only the master key may
// read or write students, roles and codes directly; everyone else goes through
// the cloud functions.

const MASTER_ONLY = {
  find: {},
  count: {},
  get: {},
  create: {},
  update: {},
  delete: {},
  addField: {},
};

export const schemaDefinitions = [
  {
    className: '_User',
    fields: {
      fullname: { type: 'String' },
      mobile: { type: 'String' },
      dob: { type: 'String' },
      gender: { type: 'String' },
      grade: { type: 'Number' },
      board: { type: 'String' },
      tmc: { type: 'Boolean' },
      enrollmentId: { type: 'Number' },
      welcomeMailClaims: { type: 'Number' },
      welcomeMessageId: { type: 'String' },
      // Admin tools: 'active' | 'deactivated' (missing means active), and when erased.
      status: { type: 'String' },
      erasedAt: { type: 'Date' },
      erasurePending: { type: 'Boolean' },
    },
    indexes: {
      // The unique indexes on mobile and enrollmentId are created by the start-up migration.
      students_by_fullname: { fullname: 1 },
      students_by_grade: { grade: 1 },
      students_by_board: { board: 1 },
      students_by_dob: { dob: 1 },
      students_by_status: { status: 1 },
    },
    classLevelPermissions: {
      ...MASTER_ONLY,
      // Parse's login reads the account back as that user; the owner-only ACL
      // of each account keeps everyone else out.
      get: { requiresAuthentication: true },
      protectedFields: { '*': ['email', 'mobile', 'dob', 'welcomeMailClaims', 'welcomeMessageId'] },
    },
  },
  {
    className: '_Role',
    classLevelPermissions: MASTER_ONLY,
  },
  // The site has no mobile app: nobody registers installations.
  {
    className: '_Installation',
    classLevelPermissions: MASTER_ONLY,
  },
  {
    className: 'OneTimeCode',
    fields: {
      purpose: { type: 'String', required: true },
      target: { type: 'String', required: true },
      codeHash: { type: 'String', required: true },
      expiresAt: { type: 'Date', required: true },
      tries: { type: 'Number' },
      uses: { type: 'Number' },
      active: { type: 'Boolean' },
      /** An admin invitation's: the name the account made at its acceptance takes. */
      inviteeName: { type: 'String' },
      /** A code whose text the SMS gateway refused: out of use, counted for the hourly cap, not the cooldown. */
      undelivered: { type: 'Boolean' },
    },
    indexes: {
      codes_by_target: { target: 1, purpose: 1, createdAt: -1 },
    },
    classLevelPermissions: { ...MASTER_ONLY, protectedFields: { '*': ['codeHash', 'target', 'inviteeName'] } },
  },
  // Assessments and their marks: admins write them through cloud functions,
  // students read their own published marks through getMyProgress; no client
  // without the master key reaches the classes.
  {
    className: 'Assessment',
    fields: {
      grade: { type: 'Number', required: true },
      board: { type: 'String', required: true },
      subject: { type: 'String', required: true },
      title: { type: 'String', required: true },
      date: { type: 'String', required: true },
      maxMarks: { type: 'Number', required: true },
      status: { type: 'String', required: true },
      publishedAt: { type: 'Date' },
      /** Mean of the marks (absent students left out), stored on publishing and on every correction. */
      average: { type: 'Number' },
      /** How many students have marks (not absent). */
      markedCount: { type: 'Number' },
      /**
       * The average students see, and its count (shown from 5): taken from the two above at
       * publishing, then only once 5 students' marks have changed (cloud/src/assessments/store.ts).
       */
      shownAverage: { type: 'Number' },
      shownCount: { type: 'Number' },
      /** The students whose marks changed since the shown average was taken. */
      changedSinceShown: { type: 'Array' },
    },
    indexes: {
      assessments_by_batch: { grade: 1, board: 1, date: -1 },
    },
    classLevelPermissions: MASTER_ONLY,
  },
  {
    className: 'Mark',
    fields: {
      assessmentId: { type: 'String', required: true },
      studentId: { type: 'String', required: true },
      marks: { type: 'Number' },
      absent: { type: 'Boolean' },
    },
    // The unique index on (assessmentId, studentId) is created by the start-up migration.
    indexes: {
      marks_by_student: { studentId: 1 },
    },
    classLevelPermissions: MASTER_ONLY,
  },
  // The study schedule: read and written only by the cloud functions, which
  // show each student their own batch's timetable and nobody else's.
  {
    className: 'TimetableSlot',
    fields: {
      grade: { type: 'Number', required: true },
      board: { type: 'String', required: true },
      subject: { type: 'String', required: true },
      weekday: { type: 'Number', required: true },
      start: { type: 'String', required: true },
      duration: { type: 'Number', required: true },
      teacher: { type: 'String', required: true },
      link: { type: 'String' },
    },
    indexes: {
      slots_by_batch: { grade: 1, board: 1 },
    },
    classLevelPermissions: MASTER_ONLY,
  },
  {
    className: 'Holiday',
    fields: {
      title: { type: 'String', required: true },
      from: { type: 'String', required: true },
      to: { type: 'String', required: true },
    },
    indexes: {
      holidays_by_end: { to: 1 },
    },
    classLevelPermissions: MASTER_ONLY,
  },
  {
    className: 'CalendarFeed',
    fields: {
      userId: { type: 'String', required: true },
      token: { type: 'String', required: true },
    },
    indexes: {
      feeds_by_token: { token: 1 },
      feeds_by_user: { userId: 1 },
    },
    classLevelPermissions: { ...MASTER_ONLY, protectedFields: { '*': ['token'] } },
  },
  // The activity log: the master key only, and append-only
  // (cloud/src/activity/log.ts, and database triggers: server/src/database/activity-log.ts).
  {
    className: 'ActivityEntry',
    fields: {
      adminId: { type: 'String', required: true },
      adminEmail: { type: 'String', required: true },
      kind: { type: 'String', required: true },
      targetClass: { type: 'String', required: true },
      targetId: { type: 'String', required: true },
      enrollmentId: { type: 'Number' },
      changes: { type: 'Array', required: true },
      state: { type: 'String', required: true },
    },
    indexes: {
      activity_by_date: { createdAt: -1 },
      activity_by_target: { targetId: 1, createdAt: -1 },
      activity_by_admin: { adminId: 1, createdAt: -1 },
    },
    classLevelPermissions: MASTER_ONLY,
  },
  // Live updates (cloud/src/live/signals.ts, docs/decisions/0012): one row per key,
  // touched by the cloud code after a change, holding no personal data. Signed-in
  // users may find (LiveQuery checks `find` when a socket subscribes, and REST
  // /classes is closed to clients anyway); each row's ACL and the beforeSubscribe
  // check decide who hears of it. Only the master key writes.
  {
    className: 'LiveSignal',
    fields: {
      key: { type: 'String', required: true },
      changes: { type: 'Number' },
    },
    indexes: { live_signal_by_key: { key: 1 } },
    classLevelPermissions: {
      ...MASTER_ONLY,
      find: { requiresAuthentication: true },
      get: { requiresAuthentication: true },
    },
  },
];
