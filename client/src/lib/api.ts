// The one way the client talks to the /api facade (product.md §5). Every call
// resolves to an ApiResult, never throws: a network failure is status 0.

export interface ApiResult<T> {
  ok: boolean;
  status: number;
  data: T | null;
  headers: Headers | null;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT';
  body?: unknown;
  token?: string | null;
  query?: Record<string, string | number | undefined>;
}

/** The error body of the facade: `{ error, code }` (product.md §5). */
export interface ApiErrorBody {
  error?: string;
  code?: number;
  success?: boolean;
}

function withQuery(path: string, query: ApiRequest['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function api<T>(path: string, request: ApiRequest = {}): Promise<ApiResult<T>> {
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
    });
  } catch {
    return { ok: false, status: 0, data: null, headers: null };
  }
  let data: T | null = null;
  try {
    const text = await response.text();
    data = text ? (JSON.parse(text) as T) : null;
  } catch {
    data = null;
  }
  return { ok: response.ok, status: response.status, data, headers: response.headers };
}

export const post = <T>(path: string, body: unknown, token?: string | null) =>
  api<T>(path, { method: 'POST', body, token });
