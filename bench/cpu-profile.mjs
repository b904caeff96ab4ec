// Loaded into the measured site with `--cpu-prof DIR` (NODE_OPTIONS=--import, as
// Node refuses --cpu-prof there): records a V8 CPU profile of the main thread and
// writes it to $BENCH_CPU_PROFILE_DIR when the process exits. Open it in Chrome's
// DevTools (Performance) or any .cpuprofile viewer.

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  // A session of the main thread answers at once, so this runs to the end inside 'exit'.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `site-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
