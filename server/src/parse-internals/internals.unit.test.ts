// Fails when a Parse Server upgrade moves or changes what internals.ts takes
// from its private lib/ folder.

import { hash as bcryptHash } from '@node-rs/bcrypt';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  Auth,
  Config,
  GridFSBucketAdapter,
  ParseServerSdk,
  PostgresStorageAdapter,
  WinstonLoggerAdapter,
  addressIn,
  parseOwnClasses,
  passwords,
} from './internals.ts';

const require = createRequire(import.meta.url);

describe("Parse Server's internals this project relies on", () => {
  it('are still where internals.ts takes them from, with the methods it uses', () => {
    expect(typeof PostgresStorageAdapter).toBe('function');
    expect(typeof PostgresStorageAdapter.prototype.createObject).toBe('function');
    for (const read of ['find', 'count', 'distinct', 'aggregate', 'getClass', 'deleteClass']) {
      expect(typeof (PostgresStorageAdapter.prototype as Record<string, unknown>)[read]).toBe('function');
    }
    // What parse-classes-only.ts lets through beside the classes of _SCHEMA.
    for (const name of ['_User', '_Role', '_Session', '_Installation', '_GlobalConfig', '_Hooks', '_JobStatus']) {
      expect(parseOwnClasses.has(name), name).toBe(true);
    }
    expect(typeof GridFSBucketAdapter).toBe('function');
    expect(typeof WinstonLoggerAdapter.prototype.log).toBe('function');
    // What userOfSession calls: Parse's own way from a session token to its account.
    expect(typeof Config.get).toBe('function');
    expect(typeof Auth.getAuthForSessionToken).toBe('function');
    // What bad-query-values.ts throws: an error of Parse Server's own SDK, with a query's code.
    expect(new ParseServerSdk.Error(ParseServerSdk.Error.INVALID_QUERY, 'x').code).toBe(102);
    // ... and the very SDK Parse Server's storage adapter loads, whose Parse.Error Parse Server tells apart.
    const adapterRequire = createRequire(
      require.resolve('parse-server/lib/Adapters/Storage/Postgres/PostgresStorageAdapter.js'),
    );
    expect(adapterRequire('parse/node')).toBe(ParseServerSdk);
    // What the read-only key's guard asks: Parse's own address check of masterKeyIps.
    const loopback = addressIn(['127.0.0.1', '::1', '10.1.0.0/16']);
    expect([loopback('127.0.0.1'), loopback('::1'), loopback('10.1.2.3')]).toEqual([true, true, true]);
    expect([loopback('203.0.113.5'), loopback('10.2.0.1')]).toEqual([false, false]);
  });

  it("still compares a password with a bcrypt hash in Parse's format", async () => {
    const hash = await bcryptHash('secret-123', 4);
    expect(await passwords.compare('secret-123', hash)).toBe(true);
    expect(await passwords.compare('secret-124', hash)).toBe(false);
  });
});
