// Belt and braces beside the class-level permissions: only the master key (that
// is, the cloud functions) may create or change an account, and
// Parse's own login runs for the cloud functions only (they count failed logins:
// docs/decisions/0006).

import { ErrorCode } from '@tc/domain/errors';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { fail } from '../errors.ts';
import { parse } from '../parse.ts';
import { ERASURE_PENDING } from './accounts.ts';

const LOGIN_THROUGH_SITE = 'Log in through the site';

export function defineUserTriggers(): void {
  const Parse = parse();
  Parse.Cloud.beforeSave(Parse.User, (request) => {
    if (!request.master) fail(ErrorCode.Forbidden, 'Accounts are created and changed through the site only');
    // An erased account stays as the erasure left it: a change loaded before the erasure
    // (an admin's edit, a reactivation) is refused when it comes to be saved, and brings
    // back no personal value.
    // The one change that passes: the erasure's own mark that its last steps are done.
    if (request.original?.get('erasedAt') && !onlyErasureFinished(request.object)) {
      fail(ErrorCode.Forbidden, AdminToolsMessage.erasedCannotChange);
    }
  });
  Parse.Cloud.beforeDelete(Parse.User, (request) => {
    if (!request.master) fail(ErrorCode.Forbidden, 'Accounts are removed by an administrator only');
  });
  // A call over HTTP (/parse/login, in a batch or not) has the client's address;
  // the cloud functions' own logins run in this process and have none.
  // Parse keeps one beforeLogin trigger: both rules of a login live here.
  Parse.Cloud.beforeLogin((request) => {
    if ((request as { ip?: string }).ip) fail(ErrorCode.Forbidden, LOGIN_THROUGH_SITE);
    // After the password has been checked, so only the account's owner learns that
    // it is deactivated (by an admin, or erased); no session is made.
    if (request.object.get('status') === 'deactivated') {
      fail(ErrorCode.AccountDeactivated, AdminToolsMessage.accountDeactivated);
    }
  });
}

/** An update of an erased account that only marks the erasure's last steps done. */
function onlyErasureFinished(account: { dirtyKeys(): string[]; get(key: string): unknown }): boolean {
  const keys = account.dirtyKeys();
  return keys.length === 1 && keys[0] === ERASURE_PENDING && account.get(ERASURE_PENDING) === undefined;
}
