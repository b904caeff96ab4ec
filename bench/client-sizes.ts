// The JavaScript a route needs before its page works (its "first load"), from the
// client build's Vite manifest: the entry, the route's page module and, for the
// pages built with MUI, the MUI layout (client/src/app/app-routes.tsx loads both at
// once), each with the chunks it imports statically. Chunks imported dynamically
// (the date picker, toasts, the Parse SDK) load later and are not counted.
// `node --import tsx bench/client-sizes.ts` prints the table without the rest of the bench.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/** The page module of each route, and whether it sits under the MUI layout. */
const ROUTES: Record<string, { page: string; mui: boolean }> = {
  '/': { page: 'src/pages/home/home-page.tsx', mui: false },
  '/home': { page: 'src/pages/home/home-page.tsx', mui: false },
  '/registeruser': { page: 'src/pages/register/register-page.tsx', mui: true },
  '/studentlogin': { page: 'src/pages/student-login/student-login-page.tsx', mui: true },
  '/forgotpassword': { page: 'src/pages/forgot-password/forgot-password-page.tsx', mui: true },
  '/adminlogin': { page: 'src/pages/admin-login/admin-login-page.tsx', mui: true },
  '/thank-you': { page: 'src/pages/thank-you/thank-you-page.tsx', mui: true },
  '/terms': { page: 'src/pages/legal/terms-page.tsx', mui: false },
  '/privacy': { page: 'src/pages/legal/privacy-page.tsx', mui: false },
  '/dashboard': { page: 'src/pages/student-dashboard/student-dashboard-page.tsx', mui: true },
  '/admindashborad': { page: 'src/pages/admin-dashboard/admin-dashboard-page.tsx', mui: true },
};

/** Targets of the first load, gzip kB (issue 13). */
export const FIRST_LOAD_TARGETS: Record<string, number> = { '/': 110, '/home': 110, '/registeruser': 170 };

export function clientSizes(dist = path.join(root, 'client/dist')) {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestFile)) throw new Error('client/dist/.vite/manifest.json is missing: run `npm run build`');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const closure = (key: string, seen: Set<string>) => {
    if (seen.has(key)) return seen;
    if (!manifest[key]) throw new Error(`${key} is not in the client build's manifest`);
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, seen);
    return seen;
  };
  const gzipped = new Map<string, number>();
  const size = (file: string) => {
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
    return gzipped.get(file)!;
  };
  return Object.entries(ROUTES).map(([route, { page, mui }]) => {
    const keys = closure(entryKey, new Set());
    closure(page, keys);
    if (mui) closure('src/app/mui-layout.tsx', keys);
    const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
    const gzip = files.reduce((sum, f) => sum + size(f), 0);
    const kB = Math.round(gzip / 102.4) / 10;
    const target = FIRST_LOAD_TARGETS[route];
    return {
      route,
      files: files.length,
      'gzip kB': kB,
      target: target ? `<= ${target}` : '',
      met: target ? (kB <= target ? 'yes' : 'NO') : '',
    };
  });
}

if (process.argv[1] === import.meta.filename) {
  console.log('First-load JavaScript per route (gzip level 9)');
  console.table(clientSizes());
}
