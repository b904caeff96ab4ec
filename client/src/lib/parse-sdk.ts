// The Parse JS SDK in the browser. Heavy, so never imported statically: the
// pages that use it load this module with `import()` (registration once the
// code has been sent, the dashboards for their live updates), and the home
// page never downloads it. Parse is the site's own (`/parse`, app id from
// GET /api/parse-config); REST reaches cloud functions only, LiveQuery the
// LiveSignal class only (docs/decisions/0013-live-updates.md).

import Parse from 'parse';
import { CALLS, type CallName, type RequestOf, type ResponseOf } from '@tc/domain/api/contract';
import { ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { LIVE_SIGNAL_CLASS } from '@tc/domain/live';
import { call, type ApiResult } from './api.ts';

let initialised: Promise<boolean> | undefined;

/** Keeps the `field` Parse's answer carries (server/src/parse-internals) on the SDK's error. */
function keepErrorFields(): void {
  const rest = Parse.CoreManager.getRESTController() as unknown as {
    handleError(json: unknown): Promise<never>;
  };
  const handleError = rest.handleError.bind(rest);
  rest.handleError = (json) =>
    handleError(json).catch((error: Parse.Error & { field?: string }) => {
      const field = (json as { field?: unknown } | null)?.field;
      if (typeof field === 'string' && field) error.field = field;
      throw error;
    });
}

/** Initialises the SDK once (the page's origin, the app id the server gives); false when that failed. */
export function loadParse(): Promise<boolean> {
  initialised ??= (async () => {
    const config = await call('getParseConfig', {});
    if (!config.ok || !config.data) {
      initialised = undefined;
      return false;
    }
    // No JavaScript key: Parse Server has none, the app id is enough (and no secret).
    Parse.initialize(config.data.appId, '');
    Parse.serverURL = `${window.location.origin}${config.data.serverPath}`;
    Parse.liveQueryServerURL = `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${config.data.serverPath}`;
    // One try, as the /api client: a registration is never sent twice behind the parent's back.
    Parse.CoreManager.set('REQUEST_ATTEMPT_LIMIT', 1);
    keepErrorFields();
    return true;
  })();
  return initialised;
}

/**
 * Runs the cloud function of a contract call through `Parse.Cloud.run` and
 * answers like `call()`: a refusal is `{ok: false, status, data: {error, code, field?}}`
 * with the facade's status for the code, a network failure status 0, so forms
 * read both paths the same way.
 */
export async function runCloudFunction<N extends CallName>(
  name: N,
  input: NoInfer<RequestOf<N>>,
): Promise<ApiResult<ResponseOf<N>>> {
  const fn = CALLS[name].fn;
  if (!fn || !(await loadParse())) return { ok: false, status: 0, data: null, headers: null };
  try {
    const data = (await Parse.Cloud.run(fn, input as Record<string, unknown>)) as ResponseOf<N>;
    return { ok: true, status: 200, data, headers: null };
  } catch (error) {
    // No answer, or not one of Parse's (a proxy's page): as a failed fetch.
    if (
      !(error instanceof Parse.Error) ||
      typeof error.code !== 'number' ||
      error.code === Parse.Error.CONNECTION_FAILED
    ) {
      return { ok: false, status: 0, data: null, headers: null };
    }
    // Parse's own word for a fault is the facade's (server/src/routes/api.ts).
    const internal = error.code === Parse.Error.INTERNAL_SERVER_ERROR || error.code === ErrorCode.Internal;
    const field = (error as { field?: string }).field;
    const body = internal
      ? { error: ServerMessage.internal, code: ErrorCode.Internal }
      : { error: error.message, code: error.code, ...(field ? { field } : {}) };
    return { ok: false, status: httpStatusOf(body.code), data: body as ResponseOf<N>, headers: null };
  }
}

/** Live signals followed (or being subscribed to) at the moment, on every page of this tab. */
let following = 0;

/** The SDK's LiveQuery client, as far as this module uses it. */
interface LiveClient {
  on(event: 'open', listener: () => void): void;
  close(): Promise<unknown>;
}
let liveClient: Promise<LiveClient> | undefined;

/**
 * Makes the SDK's one LiveQuery client before anything subscribes. The SDK makes it on the
 * first subscription, but two made at once (a page following two signals) each make their
 * own: two sockets, and closing would close only the second.
 */
function madeLiveClient(): Promise<LiveClient> {
  const controller = Parse.CoreManager.getLiveQueryController() as {
    getDefaultLiveQueryClient(): Promise<LiveClient>;
  };
  liveClient ??= controller.getDefaultLiveQueryClient().then((client) => {
    // A socket the SDK opens again (its reconnect timer outlives a close) while the tab
    // follows nothing is closed at once, or the server's sweep and the SDK would take turns.
    client.on('open', () => {
      if (following === 0) void client.close();
    });
    return client;
  });
  return liveClient;
}

/** Closes the socket once the tab follows nothing (closing ends every subscription with it). */
function closeIfFollowingNothing(): void {
  if (following === 0) void liveClient?.then((client) => client.close());
}

/**
 * Calls `onChange` whenever the live signal `key` changes, and again after the
 * socket reconnects (a change may have been missed meanwhile). The server
 * decides whether this session may follow the key; a refusal just means no
 * live updates. Returns the unsubscribe.
 */
export async function followLiveSignal(key: string, sessionToken: string, onChange: () => void): Promise<() => void> {
  if (!(await loadParse())) return () => {};
  // Counted from before it is asked for, so that a page leaving meanwhile does not close the socket under it.
  following++;
  const query = new Parse.Query(LIVE_SIGNAL_CLASS).equalTo('key', key);
  const subscription = await madeLiveClient()
    .then(() => query.subscribe(sessionToken))
    .catch((error: unknown) => {
      // Refused (an ended session, say): the SDK would ask again at every reconnect.
      following--;
      closeIfFollowingNothing();
      throw error;
    });
  let opened = false;
  subscription.on('open', () => {
    if (opened) onChange();
    opened = true;
  });
  subscription.on('create', onChange);
  subscription.on('update', onChange);
  return () => {
    following--;
    // A tab that follows nothing closes its socket (the server would, a minute later:
    // server/src/live-query-guard.ts); the next follow opens one again.
    if (following > 0) void subscription.unsubscribe();
    closeIfFollowingNothing();
  };
}
