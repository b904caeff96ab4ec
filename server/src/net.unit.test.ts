import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { freePort } from './net.ts';

it('hands out ports that can be listened on, outside the range outgoing connections take theirs from', async () => {
  const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) {
    expect(port < low! || port > high!, `${port} is in ${low}-${high}`).toBe(true);
    expect(port).toBeGreaterThanOrEqual(1024);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.on('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  }
  // Never the same one twice.
  expect(new Set(ports).size).toBe(ports.length);
});
