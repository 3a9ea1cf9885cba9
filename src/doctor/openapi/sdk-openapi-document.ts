import { VERSION } from '../../version.js';
import { sdkOperations } from './sdk-expectations.js';

type Json = Record<string, unknown>;

const CREATED = new Set(['oauth.token', 'spvRequests.create', 'subscriptions.create']);

/**
 * An OpenAPI 3.1 document of exactly what the SDK reads and sends: every operation of `OPERATIONS` with the
 * JSON Schemas of the SDK's zod schemas, the query parameters and `Idempotency-Key` it sends, and a bearer
 * requirement where it always sends a token. Comparing it with itself finds nothing; comparing a service's
 * document with it is what `client.doctor()` does.
 *
 * @internal For tests and for reading what the SDK expects; not a description of the service.
 */
export function sdkOpenApiDocument(serverUrl = 'https://sandbox.example-partner-equity.com'): Json {
  const paths: Record<string, Json> = {};
  for (const sdk of sdkOperations()) {
    const parameters: Json[] = [...sdk.route.matchAll(/\{(\w+)\}/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const name of sdk.query) parameters.push({ name, in: 'query', required: false, schema: {} });
    if (sdk.headers.includes('idempotency-key')) {
      parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } });
    }
    const status = CREATED.has(sdk.name) || sdk.name.startsWith('subscriptions.upload') ? '201' : '200';
    const content =
      sdk.response === undefined
        ? { 'text/html': { schema: { type: 'string' } } }
        : { 'application/json': { schema: sdk.response } };
    paths[sdk.route] ??= {};
    paths[sdk.route]![sdk.method.toLowerCase()] = {
      operationId: sdk.name,
      summary: sdk.sdk,
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(sdk.request === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: { [sdk.request.contentType]: { schema: sdk.request.schema } },
            },
          }),
      ...(sdk.auth === 'bearer' ? { security: [{ bearerAuth: [] }] } : {}),
      responses: { [status]: { description: 'What the SDK reads', content } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Partner Equity API as @partner-equity/sdk reads and sends it', version: VERSION },
    servers: [{ url: serverUrl }],
    paths,
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  };
}
