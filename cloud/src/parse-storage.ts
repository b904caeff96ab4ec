// Names in Parse Server's own PostgreSQL schema that this project's SQL reads or
// writes, in one place: Parse does not document them, and an upgrade may rename
// them. Every site start reads the password column (server/src/admin-bootstrap.ts)
// and every signed-in call reads the role members (users/sessions.ts), so every
// integration test fails should an upgrade rename either.

/** Where Parse keeps a password's bcrypt hash (read by the admin bootstrap, written by the seed). */
export const HASHED_PASSWORD_COLUMN = '_hashed_password';

/** Parse's table of a role's `users` relation: `owningId` the role, `relatedId` the user. */
export const ROLE_MEMBERS_TABLE = '_Join:users:_Role';
