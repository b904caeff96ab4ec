import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a secret a client sent (a key, a token, a password of the configuration) is the
 * expected one, in a time that tells nothing of either: their digests are compared, so
 * not even the length shows.
 */
export function sameSecret(given: unknown, expected: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(expected));
}
