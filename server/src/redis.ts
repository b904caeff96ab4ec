// The site's Redis clients (REDIS_URL: shared rate limits and login counters when
// several instances run). Start-up stops with a line naming REDIS_URL when Redis
// cannot be reached; once connected, a lost connection is retried for ever.

import { createClient } from 'redis';

/** Attempts of the first connection, about a second apart, before start-up gives up. */
const FIRST_CONNECT_TRIES = 5;

function redisClient(url: string, connected: () => boolean) {
  return createClient({
    url,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries, cause) => {
        if (!connected() && retries >= FIRST_CONNECT_TRIES) {
          return new Error(`REDIS_URL: cannot reach Redis (${cause.message || cause.name})`);
        }
        return Math.min(1_000 * 2 ** Math.max(0, retries - FIRST_CONNECT_TRIES), 5_000);
      },
    },
  });
}

export async function connectRedis(url: string, onError: (message: string) => void) {
  let connected = false;
  const client = redisClient(url, () => connected);
  // While the first connection is tried, each failed attempt is an error event: start-up
  // says it once, in the line naming REDIS_URL. Once connected, every error is told.
  client.on('error', (error: Error) => {
    if (connected) onError(error.message);
  });
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw error;
  }
  connected = true;
  return client;
}
