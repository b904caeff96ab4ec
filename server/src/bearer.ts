// The token of an `Authorization: Bearer <token>` header, read the one way for
// every route that takes one (the /api facade, the CSV export, /metrics).

/** The bearer token of an Authorization header, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}
