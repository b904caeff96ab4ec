// `npm run seed -- --students N`: fills the configured database (the embedded
// one under DATA_DIR, or DATABASE_URI) with N realistic students, and
// `--assessments M` (default 20, 0 for none) published assessments per batch
// with marks for every student.

import 'dotenv/config';
import { parseArgs } from 'node:util';
import { loadConfig, newAdminLogin } from '../config.ts';
import { seedAssessments, seedStudents, seedTimetable, SEED_PASSWORD } from '../database/seed.ts';
import { createPool } from '../database/sql.ts';
import { startSite } from '../start.ts';
import { todayIn } from '@tc/domain/zoned-time';

const { values } = parseArgs({
  options: { students: { type: 'string', default: '1000' }, assessments: { type: 'string', default: '20' } },
});
const count = Number(values.students);
const perBatch = Number(values.assessments);
if (!Number.isInteger(count) || count < 1) {
  console.error('--students must be a whole number above 0');
  process.exit(1);
}
if (!Number.isInteger(perBatch) || perBatch < 0 || perBatch > 360) {
  console.error('--assessments must be a whole number from 0 to 360');
  process.exit(1);
}

const config = loadConfig({ ...process.env, PORT: '0' });
const adminLogin = newAdminLogin(config);
if (adminLogin) console.log(adminLogin);
let site;
try {
  // Starting the site makes sure the schema, indexes and sequence exist.
  site = await startSite(config);
} catch (error) {
  console.error(
    `Could not open the database (${(error as Error).message.split('\n')[0]}). ` +
      'Stop `npm start` first when it uses the same DATA_DIR, or set DATABASE_URI.',
  );
  process.exit(1);
}
const sql = createPool(site.databaseUri, 2);
try {
  const { inserted, ms } = await seedStudents(sql, count);
  console.log(`Seeded ${inserted} students in ${(ms / 1000).toFixed(1)} s (each with the password ${SEED_PASSWORD}).`);
  if (perBatch) {
    const seeded = await seedAssessments(sql, perBatch);
    console.log(
      `Seeded ${seeded.assessments} published assessments with ${seeded.marks} marks in ${(seeded.ms / 1000).toFixed(1)} s.`,
    );
  }
  const timetable = await seedTimetable(sql, todayIn(config.centreTimeZone));
  console.log(
    timetable.slots
      ? `Seeded a timetable of ${timetable.slots} classes for the 27 batches and ${timetable.holidays} holidays.`
      : 'Kept the timetable the database has.',
  );
} finally {
  await sql.end();
  await site.stop();
}
process.exit(0);
