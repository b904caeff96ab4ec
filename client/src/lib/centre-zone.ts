// The centre's time zone, in which the admin screens show times and days (the
// activity log's days, the timetable and the assessments' dates are the centre's).
// Asked once per tab: the zone is the server's configuration and does not change
// while the page is open.

import { useEffect, useState } from 'react';
import { browserTimeZone } from './date-time.ts';
import { useApi } from './use-api.ts';

let known: string | undefined;
let asking: Promise<void> | undefined;

/**
 * The centre's zone for an admin's page. Until the server has said it (or when it
 * could not), the browser's own: every time shown carries its zone's label, so it is
 * never a time of one zone read as another's.
 */
export function useCentreZone(): string {
  return useKnownCentreZone() ?? browserTimeZone();
}

/** The centre's zone once the server has said it; undefined until then (or when it could not). */
export function useKnownCentreZone(): string | undefined {
  const { token, call } = useApi('admin');
  const [zone, setZone] = useState(known);
  useEffect(() => {
    if (zone || !token) return;
    let cancelled = false;
    asking ??= call('getCentre', {})
      .then(
        (result) => {
          if (result.ok && result.data) known = result.data.timeZone;
        },
        () => undefined,
      )
      .finally(() => {
        asking = undefined;
      });
    void asking.then(() => {
      if (!cancelled && known) setZone(known);
    });
    return () => {
      cancelled = true;
    };
  }, [zone, token, call]);
  return zone;
}
