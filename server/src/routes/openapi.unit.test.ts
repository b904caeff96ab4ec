// The OpenAPI document lists every call of the contract table and is valid
// OpenAPI 3.1; /api/docs serves its page from this server (no CDN).

import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '@tc/domain/api/contract';
import { apiRouter } from './api.ts';
import { openApiDocument } from './openapi.ts';

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { 'application/json': { schema: { properties?: object; required?: string[] } } } };
  responses: Record<string, unknown>;
}

let base: string;
let close: () => void;
beforeAll(async () => {
  const app = express().use(
    '/api',
    apiRouter(() => Promise.resolve(true), {
      getOperationsStatus: (_req, res) => void res.json({}),
      getParseConfig: (_req, res) => void res.json({ appId: 'app', serverPath: '/parse' }),
    }),
  );
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument());
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every call of the contract table with its method, and its cloud function', async () => {
    const res = await fetch(`${base}/api/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    for (const [name, spec] of Object.entries(CALLS)) {
      const operation = document.paths[spec.path]?.[spec.method.toLowerCase()];
      expect(operation?.operationId, `${spec.method} ${spec.path}`).toBe(name);
    }
    const operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));
    // Plus the two written by hand, whose answers are files: the CSV export and the calendar feed.
    expect(operations).toHaveLength(Object.keys(CALLS).length + 2);
    expect(document.paths['/api/users/export.csv']?.get?.operationId).toBe('exportStudents');
    expect(document.paths['/api/calendar/{token}.ics']?.get?.operationId).toBe('getCalendarFeed');
  });

  it('names a path parameter in the path only, lists every tag, and the failures the calls give', () => {
    const document = openApiDocument() as unknown as {
      tags: { name: string }[];
      paths: Record<string, Record<string, Operation>>;
    };
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(byMethod)) {
        const where = `${method} ${path}`;
        const inPath = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        const inQuery = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        expect(
          inQuery.filter((name) => inPath.includes(name)),
          where,
        ).toEqual([]);
        const body = operation.requestBody?.content['application/json'].schema;
        expect(
          Object.keys(body?.properties ?? {}).filter((name) => inPath.includes(name)),
          where,
        ).toEqual([]);
        expect(body?.required?.filter((name) => inPath.includes(name)) ?? [], where).toEqual([]);
        if (inPath.length && path.startsWith('/api/assessments'))
          expect(operation.responses, where).toHaveProperty('404');
      }
    }
    expect(document.tags.map((tag) => tag.name)).toEqual([...new Set(Object.values(CALLS).map((spec) => spec.tag))]);
    expect(document.tags.map((tag) => tag.name)).toContain('Assessments');
    expect(document.paths['/api/students/me/progress']?.get?.responses).toHaveProperty('403');
    // A taken e-mail or mobile answers 409 (3033, 3034): at registration and in an admin's edit only.
    expect(document.paths['/api/register']?.post?.responses).toHaveProperty('409');
    expect(document.paths['/api/users/{objectId}']?.put?.responses).toHaveProperty('409');
    expect(document.paths['/api/student/login']?.post?.responses).not.toHaveProperty('409');
    // A code texted or an invitation mailed at once answers 502 when the server refuses it.
    expect(document.paths['/api/send-sms']?.post?.responses).toHaveProperty('502');
    expect(document.paths['/api/admins']?.post?.responses).toHaveProperty('502');
    expect(document.paths['/api/register']?.post?.responses).not.toHaveProperty('502');
    // Any body is read: too large (413) or not JSON (415), on every call but a GET, a body-less POST too.
    for (const responses of [
      document.paths['/api/student/logout']?.post?.responses,
      document.paths['/api/register']?.post?.responses,
      document.paths['/api/timetable/holidays/{objectId}']?.delete?.responses,
    ]) {
      expect(responses).toHaveProperty('413');
      expect(responses).toHaveProperty('415');
    }
    expect(document.paths['/api/students/me']?.get?.responses).not.toHaveProperty('415');
    // Every call may answer 503 (the site starting or stopping, the database away); the
    // health checks always say their status then.
    for (const [name, spec] of Object.entries(CALLS)) {
      expect(document.paths[spec.path]?.[spec.method.toLowerCase()]?.responses, name).toHaveProperty('503');
    }
    const health503 = document.paths['/api/health']?.get?.responses['503'] as {
      content: { 'application/json': { schema: { required: string[] } } };
    };
    expect(health503.content['application/json'].schema.required).toContain('status');
  });

  it('has a human page at /api/docs whose scripts and styles come from this server', async () => {
    const page = await fetch(`${base}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source.startsWith('/api/docs/'), source).toBe(true);
      expect((await fetch(`${base}${source}`)).status, source).toBe(200);
    }
  });
});
