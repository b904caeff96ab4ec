// Cloud Code entry: imports the features and nothing else.

import { defineAdminFunctions } from './admin/functions.ts';
import { defineAssessmentFunctions } from './assessments/functions.ts';
import { defineMarkFunctions } from './assessments/marks.ts';
import { defineProgressFunctions } from './assessments/progress.ts';
import type { CloudDeps } from './deps.ts';
import { setParse, type ParseSdk } from './parse.ts';
import { defineRegistrationFunctions } from './registration/functions.ts';
import { defineStudentFunctions } from './students/functions.ts';
import { defineTimetableFunctions } from './timetable/functions.ts';
import { defineUserTriggers } from './users/triggers.ts';
import { defineActivityFunctions } from './activity/functions.ts';
import { defineActivityTriggers } from './activity/log.ts';
import { defineAdminAccountFunctions } from './admins/functions.ts';
import { defineStatusFunctions, withErasedMailSkipped } from './students/status.ts';
import { defineLiveSignalTriggers } from './live/signals.ts';

/** Given to ParseServer as its `cloud` option. */
export function cloudCode(hostDeps: CloudDeps): (parse: ParseSdk) => void {
  // Nothing is ever mailed to an erased account.
  const deps = withErasedMailSkipped(hostDeps);
  return (parse) => {
    setParse(parse);
    defineUserTriggers();
    defineRegistrationFunctions(deps);
    defineStudentFunctions(deps);
    defineAdminFunctions(deps);
    defineAssessmentFunctions(deps);
    defineMarkFunctions(deps);
    defineProgressFunctions(deps);
    defineTimetableFunctions(deps);
    // Admin tools.
    defineActivityTriggers();
    defineActivityFunctions(deps);
    defineStatusFunctions(deps);
    defineAdminAccountFunctions(deps);
    // Live updates.
    defineLiveSignalTriggers(deps);
  };
}
