// Column names of Parse Server's own PostgreSQL schema that this project's SQL
// reads or writes. Every site start reads it (admin-bootstrap.ts), so every
// integration test fails should an upgrade rename it.

/** Where Parse keeps a password's bcrypt hash (read by the admin bootstrap, written by the seed). */
export const HASHED_PASSWORD_COLUMN = '_hashed_password';
