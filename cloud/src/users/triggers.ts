// Belt and braces beside the class-level permissions: only the master key (that
// is, the cloud functions) may create or change an account.

import { ErrorCode } from '@tc/domain/errors';
import { fail } from '../errors.ts';
import { parse } from '../parse.ts';

export function defineUserTriggers(): void {
  const Parse = parse();
  Parse.Cloud.beforeSave(Parse.User, (request) => {
    if (!request.master) fail(ErrorCode.Forbidden, 'Accounts are created and changed through the site only');
  });
  Parse.Cloud.beforeDelete(Parse.User, (request) => {
    if (!request.master) fail(ErrorCode.Forbidden, 'Accounts are removed by an administrator only');
  });
}
