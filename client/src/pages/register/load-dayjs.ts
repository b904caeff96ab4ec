// dayjs (3 kB gzip) is needed for the date of birth, not to paint the registration
// form or to take it over (the date shows once the form is taken over): it loads
// beside the page's code instead of before it (issue 13, item 19). The date picker
// imports it too, and finds it loaded.

import type dayjsFunction from 'dayjs';

export type DayjsFunction = typeof dayjsFunction;

let loaded: DayjsFunction | undefined;
const loading: Promise<DayjsFunction> = import('dayjs').then((module) => (loaded = module.default));

/** Runs `use` with dayjs as soon as it is there, in the order asked. */
export function withDayjs<T>(use: (dayjs: DayjsFunction) => T): Promise<T> {
  return loading.then(use);
}

/** dayjs if it has arrived yet. */
export const dayjsIfLoaded = (): DayjsFunction | undefined => loaded;
