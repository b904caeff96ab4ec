// The VTIMEZONE block the calendar feed carries for the centre's time zone. RFC
// 5545 wants one for every TZID an event names, under that same name; the
// library files some zones under their current name (Asia/Calcutta under
// Asia/Kolkata, US/Eastern under America/New_York) and knows no block for a few
// (Europe/Kyiv), which the configuration refuses.

import { getVtimezoneComponent } from '@touch4it/ical-timezones';

/** The zone's VTIMEZONE block under the zone's own name, or null when none is known. */
export function vtimezoneOf(zone: string): string | null {
  const block = getVtimezoneComponent(zone);
  return block ? block.replace(/^TZID:.*$/m, `TZID:${zone}`) : null;
}
