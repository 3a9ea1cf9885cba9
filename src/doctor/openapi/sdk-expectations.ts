import { z } from 'zod';
import { DEFAULT_CHUNK_SIZE } from '../../resources/bulk-options.js';
import { OPERATIONS, type Operation, type OperationName } from '../../resources/operations.js';

type Json = Record<string, unknown>;

/** One operation as the SDK calls it, with the JSON Schemas of what it reads and sends. */
export interface SdkOperation {
  name: OperationName;
  /** The SDK method (`client.spvRequests.get()`). */
  sdk: string;
  method: Operation['method'];
  /** The SDK's route template (`/v1/spv-requests/{slug}`). */
  route: string;
  /** How the SDK authenticates the call (see `Operation.auth`). */
  auth: 'bearer' | 'optional' | 'none';
  /** What the SDK accepts as a 2xx JSON body (zod's input side: what its parser takes); none for text. */
  response?: Json | undefined;
  /** Checked `'strict'` whatever the client's mode (the token endpoint). */
  strict: boolean;
  /** The body the SDK sends (zod's output side: what it puts on the wire). */
  request?: { contentType: string; schema: Json; chunkedArray?: string | undefined } | undefined;
  /** Query parameters the SDK sends. */
  query: string[];
  /** Headers (lower-case) the SDK sends on every call of this operation, before the client's own. */
  headers: string[];
}

/** Rows per request of the chunked bulk calls, unless the caller sets `chunkSize`. */
export const SDK_CHUNK_SIZE = DEFAULT_CHUNK_SIZE;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

let cached: SdkOperation[] | undefined;

/**
 * Every operation of {@link OPERATIONS} with the JSON Schemas derived from the SDK's own zod schemas
 * (`z.toJSONSchema`), built once.
 */
export function sdkOperations(): SdkOperation[] {
  cached ??= (Object.entries(OPERATIONS) as [OperationName, Operation][]).map(([name, operation]) => {
    const headers = ['accept', 'user-agent'];
    if (operation.body !== undefined) headers.push('content-type');
    if (operation.idempotencyKey === true) headers.push('idempotency-key');
    return {
      name,
      sdk: operation.sdk,
      method: operation.method,
      route: operation.route,
      auth: operation.auth ?? 'bearer',
      response: operation.responseFormat === 'text' ? undefined : jsonSchema(operation.response, 'input'),
      strict: operation.validation === 'strict',
      request:
        operation.body === undefined
          ? undefined
          : {
              contentType: operation.body.contentType,
              schema: jsonSchema(operation.body.schema, 'output'),
              chunkedArray: operation.body.chunkedArray,
            },
      query: Object.keys(operation.query?.shape ?? {}),
      headers,
    };
  });
  return cached;
}

/** `GET /v1/spv-requests/{}`: method and route with parameter names left out, for matching. */
export function operationKey(method: string, route: string): string {
  return `${method.toUpperCase()} ${route.replace(/\{[^}]*\}/g, '{}')}`;
}
