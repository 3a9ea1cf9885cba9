import { z } from 'zod';
import { docsPage } from '../docs-page.js';
import { buildOpenApi } from '../openapi.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { defineRoute, json, type Route } from '../route.js';
import { iso } from '../state/resources.js';

/** `/`, `/public/hc`, `/openapi.json` and `/docs`; the last two describe `allRoutes()`. */
export function systemRoutes(profile: FakeProfile, allRoutes: () => Route[]): Route[] {
  const { schemas, present } = profile;
  return [
    defineRoute({
      method: 'GET',
      path: '/',
      auth: 'none',
      doc: {
        operationId: 'getRoot',
        summary: 'What this service is',
        tag: 'System',
        responses: { 200: { description: 'Root response', schema: schemas.RootResponse } },
      },
      run: (ctx) =>
        json(
          200,
          present.root({
            name: 'Partner Equity API',
            apiVersion: 'v1',
            version: '0.1.0',
            docsUrl: `${ctx.origin}/docs`,
            openapiUrl: `${ctx.origin}/openapi.json`,
          }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/public/hc',
      auth: 'none',
      doc: {
        operationId: 'healthCheck',
        summary: 'Health check',
        tag: 'System',
        responses: { 200: { description: 'Healthy', schema: schemas.HealthResponse } },
      },
      run: (ctx) => json(200, present.health({ status: 'ok', checkedAt: iso(ctx.services.now()) })),
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      auth: 'none',
      doc: {
        operationId: 'getOpenApi',
        summary: 'Machine-readable interface description (OpenAPI 3.1)',
        tag: 'System',
        responses: { 200: { description: 'OpenAPI document', schema: schemas.OpenApiDocument } },
      },
      run: (ctx) => json(200, buildOpenApi(allRoutes(), ctx.origin, profile)),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      auth: 'none',
      doc: {
        operationId: 'getDocs',
        summary: 'Human-readable documentation',
        tag: 'System',
        responses: { 200: { description: 'HTML page', schema: z.string(), contentType: 'text/html' } },
      },
      run: () => ({
        status: 200,
        raw: { body: docsPage(allRoutes()), contentType: 'text/html; charset=utf-8' },
      }),
    }),
  ];
}
