// The credentials Parse Server is given beside the connection string it reads them from
// without decoding (parse-server.ts): decoded as pg decodes them, for the site's own pool.

import { describe, expect, it } from 'vitest';
import { decodedCredentials } from './sql.ts';

describe('decodedCredentials', () => {
  it('decodes what a connection string must percent-encode', () => {
    expect(decodedCredentials('postgres://app%40centre:p%40ss%2Fw%20rd%25@db.example.com:5432/tuition%2Dsite')).toEqual(
      {
        user: 'app@centre',
        password: 'p@ss/w rd%',
        database: 'tuition-site',
      },
    );
  });

  it("keeps a `%` that starts no escape as it is, as pg does, instead of failing the site's start", () => {
    expect(decodedCredentials('postgres://tuition:50%off@db:5432/tuition')).toEqual({
      user: 'tuition',
      password: '50%off',
      database: 'tuition',
    });
  });

  it('gives nothing the string does not name (Parse keeps its own reading then)', () => {
    expect(decodedCredentials('postgres://db.example.com')).toEqual({});
  });
});
