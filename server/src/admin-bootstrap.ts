// Makes sure the configured administrator exists, with this password, in the
// Parse role `admin`. A student can never become one: an ADMIN_EMAIL that is a
// student's stops start-up.

import { parse, MASTER } from '@tc/cloud/parse';
import { ADMIN_ROLE, isStudent, ownerOnlyAcl } from '@tc/cloud/users/accounts';
import type { Config } from './config.ts';
import type { Sql } from './database/sql.ts';
import { HASHED_PASSWORD_COLUMN } from '@tc/cloud/parse-storage';
import { passwords } from './parse-internals/internals.ts';

export async function ensureAdmin(config: Config, sql: Sql): Promise<void> {
  const Parse = parse();
  const { email, password, name } = config.admin;

  let admin = await new Parse.Query(Parse.User).equalTo('username', email).first(MASTER);
  if (!admin) {
    admin = new Parse.User();
    admin.set({ username: email, email, password, fullname: name });
    admin.setACL(new Parse.ACL());
    await admin.save(null, MASTER);
    admin.setACL(ownerOnlyAcl(admin));
    await admin.save(null, MASTER);
  } else if (isStudent(admin)) {
    throw new Error(`ADMIN_EMAIL ${email} is a student's address; a student can never be an admin: choose another`);
  } else {
    const { rows } = await sql.query<{ hash: string | null }>(
      `SELECT "${HASHED_PASSWORD_COLUMN}" AS hash FROM "_User" WHERE "objectId" = $1`,
      [admin.id],
    );
    const same = rows[0]?.hash ? await passwords.compare(password, rows[0].hash) : false;
    if (!same || admin.get('fullname') !== name) {
      if (!same) admin.setPassword(password);
      admin.set('fullname', name);
      await admin.save(null, MASTER);
    }
  }

  let role = await new Parse.Query(Parse.Role).equalTo('name', ADMIN_ROLE).first(MASTER);
  if (!role) {
    role = new Parse.Role(ADMIN_ROLE, new Parse.ACL());
    role.getUsers().add(admin);
    await role.save(null, MASTER);
    return;
  }
  const member = await role.getUsers().query().equalTo('objectId', admin.id).first(MASTER);
  if (!member) {
    role.getUsers().add(admin);
    await role.save(null, MASTER);
  }
}
