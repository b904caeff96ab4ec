// Parse reads a class it does not know, with a master key, as `SELECT * FROM "<name>"`:
// the name is never checked on a read, and the read-only key (Parse Dashboard's, in an
// operator's browser) counts as a master key. Any table or view the site's database
// role can see would read: PostgreSQL's pg_stat_activity (every connection's last
// statement, session tokens in them, as Parse's driver writes values into its SQL),
// the mail queue (an administrator's invitation code), the dashboard's sessions. Parse's
// reads reach Parse's classes only: those its schema lists (`_SCHEMA`), its own system
// classes, and the join tables of relations. Anything else reads as nothing, as a class
// that does not exist does; nor does Parse drop it as an "empty class" (`deleteClass`),
// nor create a class over it (`createClass`: its `CREATE TABLE IF NOT EXISTS` would take the
// table for the new class, listed in `_SCHEMA`, and every read above would reach it).

import { parseOwnClasses, ParseServerSdk as Parse } from '../parse-internals/internals.ts';

/** A relation's join table: `_Join:<field>:<class>`. */
const JOIN_TABLE = /^_Join:[^:]+:[^:]+$/;

type Method = (...args: unknown[]) => Promise<unknown>;

/** The part of pg-promise's database (or transaction) the adapter keeps as `_client`. */
interface Queries {
  one(query: string, values: unknown[]): Promise<{ taken: boolean }>;
}

/** What each read answers for a name that is not a Parse class: what it answers for a class with no table. */
const NOTHING = { find: () => [], count: () => 0, distinct: () => [], aggregate: () => [], deleteClass: () => false };

export function parseClassesOnly<Adapter extends object>(adapter: Adapter): Adapter {
  const methods = adapter as unknown as Record<string, Method>;
  const getClass = methods.getClass;
  if (typeof getClass !== 'function') throw new Error("Parse's storage adapter has no getClass()");
  // Classes are added by the schema at start-up and by a master key's first save; never a table of the site's own.
  const known = new Set<string>();
  const isParseClass = async (name: unknown): Promise<boolean> => {
    if (typeof name !== 'string') return false;
    if (known.has(name) || parseOwnClasses.has(name) || JOIN_TABLE.test(name)) return true;
    // Parse's adapter rejects with nothing for a class its schema does not list; any other
    // rejection (a timeout, a lost connection) is the read's failure, not an empty answer.
    const listed = await getClass.call(adapter, name).then(
      () => true,
      (error: unknown) => {
        if (error === undefined) return false;
        throw error;
      },
    );
    if (listed) known.add(name);
    return listed;
  };
  for (const [name, nothing] of Object.entries(NOTHING)) {
    const method = methods[name];
    if (typeof method !== 'function') throw new Error(`Parse's storage adapter has no ${name}()`);
    methods[name] = async (...args) => ((await isParseClass(args[0])) ? method.apply(adapter, args) : nothing());
  }
  const createClass = methods.createClass;
  if (typeof createClass !== 'function') throw new Error("Parse's storage adapter has no createClass()");
  methods.createClass = async (...args) => {
    const [name, , conn] = args;
    // A table or view of that name (the search path's: PostgreSQL's catalog views too), then
    // the listing: a class another instance has just created is listed by then (one transaction).
    const queries = (conn ?? (adapter as { _client?: Queries })._client) as Queries;
    const relation = `"${String(name).replace(/"/g, '""')}"`;
    const { taken } = await queries.one('SELECT to_regclass($1) IS NOT NULL AS taken', [relation]);
    if (taken && !(await isParseClass(name))) {
      throw new Parse.Error(
        Parse.Error.INVALID_CLASS_NAME,
        `Class name ${String(name)} is taken by a table outside Parse.`,
      );
    }
    return createClass.apply(adapter, args);
  };
  return adapter;
}
