// Parse reads a class it does not know, with a master key, as `SELECT * FROM "<name>"`:
// the name is never checked on a read, and the read-only key (Parse Dashboard's, in an
// operator's browser) counts as a master key. Any table or view the site's database
// role can see would read: PostgreSQL's pg_stat_activity (every connection's last
// statement, session tokens in them, as Parse's driver writes values into its SQL),
// the mail queue (an administrator's invitation code), the dashboard's sessions. Parse's
// reads reach Parse's classes only: those its schema lists (`_SCHEMA`), its own system
// classes, and the join tables of relations. Anything else reads as nothing, as a class
// that does not exist does; nor does Parse drop it as an "empty class" (`deleteClass`).

import { parseOwnClasses } from '../parse-internals/internals.ts';

/** A relation's join table: `_Join:<field>:<class>`. */
const JOIN_TABLE = /^_Join:[^:]+:[^:]+$/;

type Method = (...args: unknown[]) => Promise<unknown>;

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
  return adapter;
}
