// Build step after `vite build` and the SSR build of src/entry-server.tsx:
// renders each public page (PRERENDERED_ROUTES) into a copy of index.html, with
// its styles inline. The server answers those routes with these files; the
// browser paints them at once and hydrates them when the scripts arrive
// (src/main.tsx, which also fetches the page's own chunks in parallel).

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRERENDERED_ROUTES, prerenderedFile } from '@tc/domain/routes';

const client = path.resolve(import.meta.dirname, '..');
const dist = path.join(client, 'dist');
const serverBuild = path.join(client, 'dist-server');

const template = pageTemplate(readFileSync(path.join(dist, 'index.html'), 'utf8'));
/** What src/entry-server.tsx exports, once built. */
interface ServerEntry {
  render: (url: string) => Promise<{ html: string; styles: string; title?: string }>;
}
// The server build resolves React and MUI from node_modules at run time: they must run
// as in the browser's production build, or MUI's class names (labelled in development)
// would differ from the browser's, and Emotion would insert every style again.
process.env.NODE_ENV = 'production';
const { render } = (await import(pathToFileURL(path.join(serverBuild, 'entry-server.js')).href)) as ServerEntry;

/**
 * index.html, made to paint first: the stylesheet (site.css and the font faces,
 * a few kB) goes inline, so the first paint waits for no other request; the
 * scripts load without competing with it (async, no preload hints: the page is
 * readable before they run); the Latin face of the font is preloaded, so that
 * text rarely changes font after it is shown.
 */
function pageTemplate(html: string): string {
  const inlined = html
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace('<script type="module" crossorigin', '<script type="module" async crossorigin')
    .replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (_link, file: string) => {
      const css = readFileSync(path.join(dist, file), 'utf8').replace(/<\/style/gi, '<\\/style');
      return `<style>${css}</style>`;
    });
  const latinFont = readdirSync(path.join(dist, 'assets')).find((file) =>
    /^nunito-latin-wght-normal-.*\.woff2$/.test(file),
  );
  if (!latinFont) return inlined;
  return inlined.replace(
    '<title>',
    `<link rel="preload" href="/assets/${latinFont}" as="font" type="font/woff2" crossorigin>\n    <title>`,
  );
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

rmSync(path.join(dist, 'prerendered'), { recursive: true, force: true });
for (const route of PRERENDERED_ROUTES) {
  const { html, title, ...rendered } = await render(route);
  // A page without MUI components has only an empty Emotion tag.
  const styles = rendered.styles.replace(/<style data-emotion="css "><\/style>/, '');
  let page = template
    .replace('<div id="root"></div>', `<div id="root">${html}</div>`)
    .replace('</head>', `  ${styles}\n  </head>`);
  if (title) page = page.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  if (!page.includes(html)) throw new Error(`index.html has no empty <div id="root"></div> for ${route}`);
  const file = path.join(dist, prerenderedFile(route)!);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, page);
  console.log(`pre-rendered ${route} -> ${path.relative(client, file)} (${Math.round(page.length / 1024)} kB)`);
}
rmSync(serverBuild, { recursive: true, force: true });
