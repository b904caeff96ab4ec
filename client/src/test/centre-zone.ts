import { todayIso } from '@tc/domain/dates';
import { todayIn } from '@tc/domain/zoned-time';

/**
 * A centre whose date is not this computer's now (UTC+14 is a day ahead of UTC from 10:00,
 * UTC-12 behind before noon): its zone, its today, and whether it is a day ahead.
 */
export function centreAwayFromHere(): { zone: string; centreToday: string; centreAhead: boolean } {
  const zone = ['Pacific/Kiritimati', 'Etc/GMT+12'].find((z) => todayIn(z) !== todayIso())!;
  const centreToday = todayIn(zone);
  return { zone, centreToday, centreAhead: centreToday > todayIso() };
}
