// The one way the client talks to the /api facade: `call(name, input)` with the
// path, method and types of the contract table (domain/src/api/contract.ts).
// Every call resolves to an ApiResult, never throws: a network failure is status 0.

import type { CallName, CallSpec, ErrorBody, RequestOf, ResponseOf } from '@tc/domain/api/contract';
import { pathParamsOf, urlOf } from '@tc/domain/api/paths';

type Contract = typeof import('@tc/domain/api/contract');
let contract: Promise<Contract> | undefined;

/**
 * The contract table, fetched with the first call rather than with the page: a form
 * needs it only when it is sent (issue 13, item 19). A failed fetch is tried again at
 * the next call.
 */
function loadContract(): Promise<Contract> {
  contract ??= import('@tc/domain/api/contract').catch((error: unknown) => {
    contract = undefined;
    throw error;
  });
  return contract;
}

export interface ApiResult<T> {
  ok: boolean;
  status: number;
  data: T | null;
  headers: Headers | null;
}

interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  token?: string | null;
  query?: Record<string, string | number | undefined>;
}

/** The error body of the facade: `{ error, code }`, and `field` when one field's rule failed. */
export type ApiErrorBody = Partial<ErrorBody>;

function withQuery(path: string, query: ApiRequest['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * How long a call waits for its answer before it is given up as a network failure (status
 * 0): a phone whose connection stalled (a dead socket gets no error for minutes) gets its
 * form back, rather than "Saving..." for ever. Well past the server's own limit on a request
 * (REQUEST_TIMEOUT_S, 30 s by default) and a large upload on a slow line.
 */
export const CALL_TIME_LIMIT_MS = 120_000;

async function api<T>(path: string, request: ApiRequest = {}): Promise<ApiResult<T>> {
  const { method = request.body === undefined ? 'GET' : 'POST', body, token, query } = request;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(withQuery(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      // The answer's body too: a stall half-way through it is given up the same.
      signal: AbortSignal.timeout(CALL_TIME_LIMIT_MS),
    });
  } catch {
    return { ok: false, status: 0, data: null, headers: null };
  }
  let data: T | null = null;
  try {
    const text = await response.text();
    data = text ? (JSON.parse(text) as T) : null;
  } catch (error) {
    // Given up half-way through the answer: a network failure, whatever its status said.
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      return { ok: false, status: 0, data: null, headers: null };
    }
    data = null;
  }
  return { ok: response.ok, status: response.status, data, headers: response.headers };
}

/** Runs one call of the contract: path parameters fill the path, the rest is the body or the query. */
export function call<N extends CallName>(
  name: N,
  input: NoInfer<RequestOf<N>>,
  options?: { token?: string | null },
): Promise<ApiResult<ResponseOf<N>>>;
export async function call(
  name: CallName,
  input: object,
  options: { token?: string | null } = {},
): Promise<ApiResult<unknown>> {
  let table: Contract;
  try {
    table = await loadContract();
  } catch {
    // Offline, like a failed request.
    return { ok: false, status: 0, data: null, headers: null };
  }
  const spec = (table.CALLS as Record<string, CallSpec>)[name]!;
  const params: Record<string, unknown> = { ...input };
  const url = urlOf(spec, params);
  for (const param of pathParamsOf(spec)) delete params[param];
  return api(url, {
    method: spec.method,
    token: options.token,
    body: spec.input === 'body' ? params : spec.method === 'GET' ? undefined : {},
    query: spec.input === 'query' ? (params as ApiRequest['query']) : undefined,
  });
}
