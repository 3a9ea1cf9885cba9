import { z } from 'zod';
import { docsPage } from '../docs-page.js';
import { buildOpenApi } from '../openapi.js';
import { defineRoute, json, type Route } from '../route.js';
import { iso } from '../state/resources.js';
import { HealthResponse, OpenApiDocument, RootResponse } from '../wire/system.js';

/** `/`, `/public/hc`, `/openapi.json` and `/docs`; the last two describe `allRoutes()`. */
export function systemRoutes(allRoutes: () => Route[]): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/',
      auth: 'none',
      doc: {
        operationId: 'getRoot',
        summary: 'What this service is',
        tag: 'System',
        responses: { 200: { description: 'Root response', schema: RootResponse } },
      },
      run: (ctx) =>
        json(200, {
          name: 'Partner Equity API',
          apiVersion: 'v1',
          version: '0.1.0',
          docsUrl: `${ctx.origin}/docs`,
          openapiUrl: `${ctx.origin}/openapi.json`,
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/public/hc',
      auth: 'none',
      doc: {
        operationId: 'healthCheck',
        summary: 'Health check',
        tag: 'System',
        responses: { 200: { description: 'Healthy', schema: HealthResponse } },
      },
      run: (ctx) => json(200, { status: 'ok', checkedAt: iso(ctx.services.now()) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      auth: 'none',
      doc: {
        operationId: 'getOpenApi',
        summary: 'Machine-readable interface description (OpenAPI 3.1)',
        tag: 'System',
        responses: { 200: { description: 'OpenAPI document', schema: OpenApiDocument } },
      },
      run: (ctx) => json(200, buildOpenApi(allRoutes(), ctx.origin)),
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
