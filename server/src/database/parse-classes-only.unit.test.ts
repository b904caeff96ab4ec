import { describe, expect, it } from 'vitest';
import { parseClassesOnly } from './parse-classes-only.ts';

/** An adapter as Parse's PostgreSQL one answers: `_SCHEMA` lists `Assessment`; `getClass` as `lookUp` says. */
function adapter(lookUp: (name: string) => Promise<unknown>, tables: readonly string[] = []) {
  const read = (name: string) => Promise.resolve([`row of ${name}`]);
  return parseClassesOnly({
    // PostgreSQL's to_regclass of a quoted name: a table, view or catalog view of that name.
    _client: {
      one: (_sql: string, [relation]: [string]) =>
        Promise.resolve({ taken: tables.includes(JSON.parse(relation) as string) }),
    },
    getClass: lookUp,
    createClass: (name: string) => Promise.resolve(`created ${name}`),
    find: read,
    count: (_name: string) => Promise.resolve(7),
    distinct: read,
    aggregate: read,
    deleteClass: (_name: string) => Promise.resolve(true),
  });
}

// What Parse's adapter does for a class its schema does not list: it rejects with nothing.
const notListed = (): Promise<unknown> =>
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
  Promise.reject(undefined);
const schemaListing = (name: string) => (name === 'Assessment' ? Promise.resolve({}) : notListed());

describe("Parse's reads of its own classes only", () => {
  it('reads a class of the schema, its system classes and join tables; anything else as nothing', async () => {
    const a = adapter(schemaListing);
    expect(await a.find('Assessment')).toEqual(['row of Assessment']);
    expect(await a.find('_User')).toEqual(['row of _User']);
    expect(await a.find('_Join:users:_Role')).toEqual(['row of _Join:users:_Role']);
    expect(await a.find('pg_stat_activity')).toEqual([]);
    expect(await a.count('mail_delivery')).toBe(0);
    expect(await a.distinct('pg_roles')).toEqual([]);
    expect(await a.aggregate('pg_authid')).toEqual([]);
    expect(await a.deleteClass('mail_delivery')).toBe(false);
    expect(await a.deleteClass('Assessment')).toBe(true);
  });

  it('fails a read whose class could not be looked up (the database away), rather than answer it empty', async () => {
    let down = true;
    const a = adapter((name) => (down ? Promise.reject(new Error('Connection terminated')) : schemaListing(name)));
    await expect(a.find('Assessment')).rejects.toThrow('Connection terminated');
    await expect(a.count('Assessment')).rejects.toThrow('Connection terminated');
    down = false;
    expect(await a.find('Assessment')).toEqual(['row of Assessment']);
  });

  it('creates no class over a table or view outside Parse (its CREATE TABLE IF NOT EXISTS would take it over)', async () => {
    const a = adapter(schemaListing, ['Assessment', 'mail_delivery', 'pg_stat_activity']);
    for (const name of ['mail_delivery', 'pg_stat_activity']) {
      await expect(a.createClass(name)).rejects.toMatchObject({
        code: 103,
        message: `Class name ${name} is taken by a table outside Parse.`,
      });
    }
    expect(await a.createClass('Homework')).toBe('created Homework');
    // A class of the schema goes to Parse, which answers that it exists (or, at start-up, creates its table).
    expect(await a.createClass('Assessment')).toBe('created Assessment');
    expect(await a.createClass('_User')).toBe('created _User');
  });
});
