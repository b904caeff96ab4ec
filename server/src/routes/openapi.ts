// The OpenAPI 3.1 document of /api, made from the contract table, and a human
// page for it at /api/docs (Swagger UI, served from its npm package: no CDN).

import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import {
  CALLS,
  ERROR_BODY,
  HEALTH_UNAVAILABLE_BODY,
  pathParamsOf,
  UNAVAILABLE_BODY,
  type CallSpec,
} from '@tc/domain/api/contract';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { ErrorCode, HTTP_STATUS } from '@tc/domain/errors';
import { CALENDAR_PATH } from './calendar.ts';
import { EXPORTS_AT_ONCE } from './export.ts';
import { EXPORT_PATH } from '@tc/domain/admin-tools';

const require = createRequire(import.meta.url);

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
/** The header of a 429: when a new try can pass. */
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds until a new try can pass, when known',
    schema: { type: 'integer', minimum: 1 },
  },
};

function failureResponses(spec: CallSpec): Record<string, { description: string } & ReturnType<typeof json>> {
  const statuses = new Set<number>([400]);
  if (spec.failure) statuses.add(spec.failure.status);
  if (spec.auth !== 'none') statuses.add(HTTP_STATUS[ErrorCode.InvalidSession]);
  if (spec.auth !== 'none') statuses.add(HTTP_STATUS[ErrorCode.Forbidden]);
  if (pathParamsOf(spec).length) statuses.add(HTTP_STATUS[ErrorCode.NotFound]);
  // Any body is read (and refused when it is not JSON, or too large), whether the call takes one or not.
  if (spec.method !== 'GET') statuses.add(413).add(415);
  // Every path answers 503 while the site starts or stops; a call, when the database does not answer.
  statuses.add(503);
  if (spec.taken) statuses.add(HTTP_STATUS[ErrorCode.EmailTaken]);
  if (spec.limit !== 'none') statuses.add(HTTP_STATUS[ErrorCode.TooManyRequests]);
  if (spec.delivers) statuses.add(HTTP_STATUS[ErrorCode.DeliveryFailed]);
  const describe: Record<number, string> = {
    400: 'A rule failed (`field` names the field) or the request is malformed',
    401: spec.auth === 'none' ? 'Refused' : 'No session, or an expired one',
    403: spec.auth === 'admin' ? 'Not an administrator' : "Not a student's session",
    404: 'No such record',
    409: 'The e-mail (code 3033) or the mobile (3034) is already registered',
    413: 'The body is over the 100 kB any call may send',
    415: 'The body is not JSON (send Content-Type: application/json, in UTF-8)',
    503: spec.unavailable
      ? 'The database does not answer, or the site is starting or shutting down'
      : 'The site is starting or shutting down, or the database does not answer: try again shortly',
    429: 'Too many requests from this address; try again later',
    502: 'The SMS or mail server did not take it (code 3502): nothing was sent, try again',
  };
  return Object.fromEntries(
    [...statuses].sort().map((status) => [
      String(status),
      {
        description: describe[status] ?? 'Failed',
        ...(status === 429 ? { headers: RETRY_AFTER } : {}),
        ...json(status !== 503 ? ERROR_BODY : spec.unavailable ? HEALTH_UNAVAILABLE_BODY : UNAVAILABLE_BODY),
      },
    ]),
  );
}

function operation(name: string, spec: CallSpec) {
  const inPath = pathParamsOf(spec);
  // A path parameter is in the path only: not among the query's parameters, nor in the body.
  const request = withoutProperties(spec.request, inPath);
  const properties = (request as { properties?: Record<string, unknown> }).properties ?? {};
  const parameters = [
    ...inPath.map((param) => ({ name: param, in: 'path', required: true, schema: { type: 'string' } })),
    ...(spec.input === 'query'
      ? Object.entries(properties).map(([param, schema]) => ({ name: param, in: 'query', required: false, schema }))
      : []),
  ];
  const success: Record<string, unknown> = { description: 'Success', ...json(spec.response) };
  if (spec.totalHeader) {
    success.headers = {
      [spec.totalHeader]: { description: 'How many match, over every page', schema: { type: 'integer' } },
    };
  }
  return {
    operationId: name,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    ...(spec.auth === 'none' ? {} : { security: [{ [spec.auth]: [] }] }),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.input === 'body' ? { requestBody: { required: true, ...json(request) } } : {}),
    responses: { [String(spec.status ?? 200)]: success, ...failureResponses(spec) },
    ...(spec.fn ? { 'x-cloud-function': spec.fn } : {}),
    ...(spec.limit !== 'none' ? { 'x-rate-limit-group': spec.limit } : {}),
  };
}

/** A JSON schema of an object without the named properties (and not requiring them). */
function withoutProperties(schema: unknown, names: readonly string[]): unknown {
  const object = schema as { properties?: Record<string, unknown>; required?: string[] };
  if (!names.length || !object.properties) return schema;
  return {
    ...object,
    properties: Object.fromEntries(Object.entries(object.properties).filter(([name]) => !names.includes(name))),
    ...(object.required ? { required: object.required.filter((name) => !names.includes(name)) } : {}),
  };
}

/** The one call outside the table: it answers a file (text/calendar), not JSON. */
const calendarOperation = {
  operationId: 'getCalendarFeed',
  summary: "A student's timetable as an iCalendar feed",
  description:
    'Weekly recurring events in the centre time zone (TZID), holidays as exceptions (EXDATE), the class link in each ' +
    'event. No login: the token (from GET /api/students/me/calendar) is the secret. 404 once the student gets a new link, ' +
    'while the account is deactivated, and after its erasure. Only misses count in the look-up limit.',
  tags: ['Schedule'],
  parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
  responses: {
    '200': { description: 'The feed', content: { 'text/calendar': { schema: { type: 'string' } } } },
    '404': { description: 'No such feed (never was, replaced, or its account deactivated)', ...json(ERROR_BODY) },
    '429': {
      description: 'Too many missed look-ups from this address; try again later',
      headers: RETRY_AFTER,
      ...json(ERROR_BODY),
    },
  },
  'x-rate-limit-group': 'lookup',
};
/** GET /api/users/export.csv: a file, served by routes/export.ts beside the table, so written here by hand. */
function exportOperation() {
  const query = (name: string, schema: object, description: string) => ({
    name,
    in: 'query',
    required: false,
    schema,
    description,
  });
  return {
    operationId: 'exportStudents',
    summary: 'The students table as CSV: the current search, filters and sort, every page',
    description:
      'Streamed from the database. UTF-8 with a BOM, CRLF line ends, a header row, dates DD/MM/YYYY; a cell ' +
      "starting with =, +, -, @, tab or carriage return is prefixed with ' (no formula injection). " +
      'Each export is recorded in the activity log (students.export: the admin and the view, a search not quoted).',
    tags: ['Admin'],
    security: [{ admin: [] }],
    parameters: [
      query('q', { type: 'string' }, 'Name, e-mail or mobile contains'),
      query('grade', { type: 'integer', minimum: 1, maximum: 9 }, 'Grade'),
      query('board', { type: 'string', enum: ['CBSE', 'ICSE', 'State'] }, 'Board'),
      query(
        'status',
        { type: 'string', enum: ['active', 'deactivated', 'all'] },
        'active (the default), deactivated or all',
      ),
      query('sort', { type: 'string' }, 'As GET /api/users'),
    ],
    responses: {
      '200': {
        description: 'The CSV file (Content-Disposition: attachment)',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      '400': { description: 'A filter or the sort is not valid', ...json(ERROR_BODY) },
      '401': { description: 'No session, or an expired one', ...json(ERROR_BODY) },
      '403': { description: 'Not an administrator', ...json(ERROR_BODY) },
      '429': {
        description: `${EXPORTS_AT_ONCE} exports are downloading already (each holds a database connection): try again after Retry-After seconds`,
        headers: RETRY_AFTER,
        ...json(ERROR_BODY),
      },
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, spec] of Object.entries(CALLS as Record<string, CallSpec>)) {
    (paths[spec.path] ??= {})[spec.method.toLowerCase()] = operation(name, spec);
  }
  paths[CALENDAR_PATH] = { get: calendarOperation };
  paths[EXPORT_PATH] = { get: exportOperation() };
  return {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_NAME} API`,
      version: '1.0.0',
      description:
        'JSON in and out. Every failure is `{error, code, requestId}` (and `field` when a rule of one field failed); ' +
        '`requestId` is also the `X-Request-Id` header of every answer, and finds the request in the log. ' +
        'Each call is also a Parse Cloud function (`x-cloud-function`) at `/parse/functions/<name>`.',
    },
    servers: [{ url: '/' }],
    // Every tag of the table, in its order.
    tags: [...new Set(Object.values(CALLS as Record<string, CallSpec>).map((spec) => spec.tag))].map((tag) => ({
      name: tag,
    })),
    paths,
    components: {
      securitySchemes: {
        student: { type: 'http', scheme: 'bearer', description: 'The `tokenStudent` of a student login' },
        admin: { type: 'http', scheme: 'bearer', description: 'The `token` of an administrator login' },
      },
    },
  };
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${PRODUCT_NAME}: API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <main id="docs"></main>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/start.js"></script>
  </body>
</html>`;

const START_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true });`;

/** /api/docs: the page, its start script and Swagger UI's own files (loaded only here). */
export function apiDocs(): Router {
  const docs = express.Router();
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  docs.get('/', (_req, res) => {
    res.type('html').setHeader('Cache-Control', 'no-cache').send(DOCS_PAGE);
  });
  docs.get('/start.js', (_req, res) => {
    res.type('application/javascript').send(START_SCRIPT);
  });
  docs.use('/assets', express.static(assets, { index: false, maxAge: '1d' }));
  return docs;
}
