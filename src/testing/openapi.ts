import { z } from 'zod';
import type { FakeProfile } from './profiles/fake-profile.js';
import type { Route } from './route.js';

type Json = Record<string, unknown>;

function clean(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** Registers every exported resource schema under its export name, plus route-local ones under derived names. */
function collect(routes: Route[], components: Record<string, unknown>) {
  const registry = z.registry<{ id: string }>();
  for (const [name, value] of Object.entries(components)) {
    if (value instanceof z.ZodType && !registry.has(value)) registry.add(value, { id: name });
  }
  const idOf = (schema: z.ZodType, fallback: string): string => {
    const existing = registry.get(schema);
    if (existing !== undefined) return existing.id;
    registry.add(schema, { id: fallback });
    return fallback;
  };
  const refs = new Map<Route, { body?: string; responses: Record<number, string> }>();
  for (const route of routes) {
    const { operationId, body, responses } = route.doc;
    const entry: { body?: string; responses: Record<number, string> } = { responses: {} };
    if (body !== undefined) entry.body = idOf(body.schema, `${operationId}Body`);
    for (const [status, response] of Object.entries(responses)) {
      if (response.schema !== undefined)
        entry.responses[Number(status)] = idOf(response.schema, `${operationId}${status}`);
    }
    refs.set(route, entry);
  }
  return { registry, refs };
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function parameters(route: Route): Json[] {
  const out: Json[] = [];
  for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
    out.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  for (const [name, schema] of Object.entries(route.doc.query?.shape ?? {})) {
    const field = schema as z.ZodType;
    out.push({
      name,
      in: 'query',
      required: !field.safeParse(undefined).success,
      schema: clean(z.toJSONSchema(field, { unrepresentable: 'any' }) as Json),
    });
  }
  if (route.idempotency !== undefined) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: route.idempotency === 'required',
      description: 'Replays the first response for 24 hours; the same key with another body is a 409.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return out;
}

/**
 * The OpenAPI 3.1 description of the fake, generated from the route table and the profile's zod schemas (so
 * it cannot drift from what the fake does), labelled version 0.1.0 as the spec's description is.
 */
export function buildOpenApi(routes: Route[], serverUrl: string, profile: FakeProfile): Json {
  const visible = routes.filter((route) => route.hidden !== true);
  const { registry, refs } = collect(visible, profile.schemas.components);
  const generated = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }).schemas;
  const components: Json = {};
  for (const [id, schema] of Object.entries(generated)) components[id] = clean(schema as Json);

  const paths: Record<string, Json> = {};
  for (const route of visible) {
    const entry = refs.get(route)!;
    const responses: Json = {};
    for (const [status, response] of Object.entries(route.doc.responses)) {
      const id = entry.responses[Number(status)];
      responses[status] = {
        description: response.description,
        ...(id === undefined
          ? {}
          : { content: { [response.contentType ?? 'application/json']: { schema: ref(id) } } }),
      };
    }
    const params = parameters(route);
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.doc.operationId,
      summary: route.doc.summary,
      tags: [route.doc.tag],
      ...(route.doc.description === undefined ? {} : { description: route.doc.description }),
      ...(params.length === 0 ? {} : { parameters: params }),
      ...(entry.body === undefined || route.doc.body === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: { [route.doc.body.contentType]: { schema: ref(entry.body) } },
            },
          }),
      ...(route.auth === 'bearer' ? { security: [{ bearerAuth: [] }] } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Equity API',
      version: '0.1.0',
      description: profile.description,
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(visible.map((route) => route.doc.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from POST /v1/oauth2/tokens',
        },
      },
    },
  };
}
