// Parse Dashboard's login as a browser goes through it, for the dashboard's tests.

import { expect } from 'vitest';
import type { TestSite } from './site.ts';

/** A site started in the test's process (startTestSite) or as a process of its own: where it answers. */
type Site = Pick<TestSite, 'url'>;

/** What a read with the read-only key needs besides the site's address. */
interface Keys {
  appId: string;
  readOnlyMasterKey: string;
}

/** A read of `_User` with the read-only key, beside a dashboard login's cookie, from `from`. */
export function readWithKey(site: Site & Keys, cookie: string, from: string): Promise<Response> {
  return fetch(`${site.url}/parse/classes/_User?limit=1`, {
    headers: {
      'x-parse-application-id': site.appId,
      'x-parse-master-key': site.readOnlyMasterKey,
      'x-forwarded-for': from,
      cookie,
    },
  });
}

interface Browser {
  cookie: string;
  csrf: string;
}

/** Opens the login page as a browser does: a session cookie and the form's CSRF token. */
export async function openLogin(site: Site, from: string): Promise<Browser & { setCookie: string }> {
  const res = await fetch(`${site.url}/parse-dashboard/login`, { headers: { 'x-forwarded-for': from } });
  const html = await res.text();
  const csrf = /<script id="csrf" type="application\/json">"([^"]+)"<\/script>/.exec(html)?.[1];
  const setCookie = res.headers.get('set-cookie') ?? '';
  expect(csrf, html.slice(0, 200)).toBeTruthy();
  return { cookie: setCookie.split(';')[0]!, csrf: csrf!, setCookie };
}

/** A login try: as the dashboard's form sends it, or as its login also takes it (a JSON body, the query string). */
export async function logIn(
  site: Site,
  user: string,
  password: string,
  from: string,
  as: 'form' | 'json' | 'query' = 'form',
) {
  const browser = await openLogin(site, from);
  const fields = { username: user, password, _csrf: browser.csrf };
  // In the query string: the user and password there, the form's token in the body.
  const query = as === 'query' ? `?${new URLSearchParams({ username: user, password }).toString()}` : '';
  const res = await fetch(`${site.url}/parse-dashboard/login${query}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': as === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      cookie: browser.cookie,
      'x-forwarded-for': from,
    },
    body:
      as === 'json'
        ? JSON.stringify(fields)
        : new URLSearchParams(as === 'form' ? fields : { _csrf: browser.csrf }).toString(),
  });
  await res.text();
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? browser.cookie;
  return {
    status: res.status,
    location: res.headers.get('location') ?? '',
    cookie,
    setCookie: res.headers.get('set-cookie'),
    retryAfter: res.headers.get('retry-after'),
  };
}
