// How many students match a listing's filters, kept for a few seconds: an exact
// count(*) over a hundred thousand rows costs more than the page itself, and an
// administrator paging through the table does not need it to the millisecond.
// Changes made through this instance clear it at once.

const TTL_MS = 5_000;
const cache = new Map<string, { total: number; at: number }>();

export async function cachedCount(key: string, count: () => Promise<number>): Promise<number> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.total;
  const total = await count();
  if (cache.size > 1000) cache.clear();
  cache.set(key, { total, at: Date.now() });
  return total;
}

export function forgetCounts(): void {
  cache.clear();
}
