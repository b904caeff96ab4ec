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
      // Admin tools (product.md §9): 'active' | 'deactivated' (missing means active), and when erased.
      status: { type: 'String' },
      erasedAt: { type: 'Date' },
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
    },
    indexes: {
      codes_by_target: { target: 1, purpose: 1, createdAt: -1 },
    },
    classLevelPermissions: { ...MASTER_ONLY, protectedFields: { '*': ['codeHash', 'target'] } },
  },
  // The activity log (product.md §9): the master key only, and append-only
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
];
