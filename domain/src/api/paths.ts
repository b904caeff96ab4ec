// The paths of the /api calls, apart from the rest of the contract table
// (contract.ts), so that the browser's build can take them without the schemas.

/** Path parameters of a call: `/api/users/{objectId}` has `objectId`. */
export function pathParamsOf(spec: { path: string }): string[] {
  return [...spec.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The URL of a call with its path parameters filled in. */
export function urlOf(spec: { path: string }, params: Record<string, unknown>): string {
  return spec.path.replace(/\{(\w+)\}/g, (_all, name: string) => {
    const value = params[name];
    return encodeURIComponent(typeof value === 'string' || typeof value === 'number' ? value : '');
  });
}
