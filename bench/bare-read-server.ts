// The least any Node HTTP server adds to a read, for the bench to print beside the
// site's figures: node:http and pg and nothing else (no Express, no logging, no
// headers, no session beyond what the statement itself checks). Each request sends
// the statement of BARE_STATEMENT with the JSON list BARE_VALUES, prepared, and
// answers its rows as JSON. It prints its port on its first line of output, and stops
// when its stdin closes.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const text = process.env.BARE_STATEMENT!;
const values = JSON.parse(process.env.BARE_VALUES ?? '[]') as unknown[];
const sql = new pg.Pool({ connectionString: process.env.DATABASE_URI, max: 4 });

const server = http.createServer((_req, res) => {
  sql.query({ name: 'bare-read', text, values }).then(
    (result) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result.rows));
    },
    () => {
      res.writeHead(500).end();
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  console.log((server.address() as AddressInfo).port);
});
// Stops when the bench that started it has gone (its stdin closes), however that ended.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
