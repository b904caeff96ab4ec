// Renders a route to HTML at build time (scripts/prerender.ts), with the CSS
// its MUI components need, so that public pages paint before any JavaScript runs.

import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/app-providers.tsx';
import { AppRoutes } from './app/app-routes.tsx';
import { TitleSink } from './components/page-title.tsx';

export interface RenderedPage {
  html: string;
  /** `<style data-emotion>` tags, which the browser's Emotion cache adopts. */
  styles: string;
  title?: string;
}

export async function render(url: string): Promise<RenderedPage> {
  // The key is Emotion's default, the one the browser's cache looks for.
  const cache = createCache({ key: 'css' });
  const emotion = createEmotionServer(cache);
  const head: { title?: string } = {};
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <CacheProvider value={cache}>
      <TitleSink value={(title) => (head.title = title)}>
        <StaticRouter location={url}>
          <AppProviders>
            <AppRoutes />
          </AppProviders>
        </StaticRouter>
      </TitleSink>
    </CacheProvider>,
    {
      onError: (error) => void errors.push(error),
      // Every part inline: React would otherwise move large parts to the end of
      // the page, revealed by inline scripts that the site's CSP forbids.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  // A part that fails on the server would be left to the browser by an inline
  // script, which the site's CSP forbids: the build fails instead.
  if (errors.length) throw new AggregateError(errors, `Pre-rendering ${url} failed: ${String(errors[0])}`);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  if (html.includes('<script')) throw new Error(`Pre-rendering ${url} produced an inline script`);
  const critical = emotion.extractCriticalToChunks(html);
  const styles = emotion.constructStyleTagsFromChunks(critical) + composedStyles(cache, critical.styles);
  return { html, styles, title: head.title };
}

/**
 * A component styled on top of another (MUI's Button on ButtonBase) inserts a style of
 * its own that only feeds the inner one's class, so it never appears in the HTML and
 * Emotion leaves it out of the critical CSS. Naming those styles as present, with no
 * rules, spares the browser compiling and inserting each of them while it takes over.
 */
function composedStyles(cache: EmotionCache, chunks: { ids: string[] }[]): string {
  const listed = new Set(chunks.flatMap((chunk) => chunk.ids));
  const composed = Object.keys(cache.inserted).filter((id) => !listed.has(id));
  return composed.length ? `<style data-emotion="${cache.key} ${composed.join(' ')}"></style>` : '';
}
