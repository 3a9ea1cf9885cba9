import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/request/request-spec.js';
import { sdkOperations } from '../../src/doctor/openapi/sdk-expectations.js';
import { sdkOpenApiDocument } from '../../src/doctor/openapi/sdk-openapi-document.js';
import { OPERATIONS } from '../../src/resources/operations.js';

// The doctor compares a server's /openapi.json with the very entries the client's calls run from.
const entries = Object.entries(OPERATIONS) as [string, Operation][];
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('the doctor reads the OPERATIONS entries the calls run from', () => {
  it('expects every entry once, with its method, route, auth, query, body and key header', () => {
    const expected = entries.map(([name, op]) => ({
      name,
      sdk: op.sdk,
      method: op.method,
      route: op.route,
      auth: op.auth ?? 'bearer',
      contentType: op.body?.contentType,
      chunkedArray: op.body?.chunkedArray,
      query: Object.keys(op.query?.shape ?? {}),
      keyHeader: op.idempotencyKey === true,
    }));
    const read = sdkOperations().map((sdk) => ({
      name: sdk.name,
      sdk: sdk.sdk,
      method: sdk.method,
      route: sdk.route,
      auth: sdk.auth,
      contentType: sdk.request?.contentType,
      chunkedArray: sdk.request?.chunkedArray,
      query: sdk.query,
      keyHeader: sdk.headers.includes('idempotency-key'),
    }));
    expect(read).toEqual(expected);
  });

  it("describes each route's path parameters as the entry's params schema names them", () => {
    const document = sdkOpenApiDocument() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    for (const [, op] of entries) {
      const described = document.paths[op.route]?.[op.method.toLowerCase()];
      expect(described, `${op.method} ${op.route}`).toBeDefined();
      const inPath = (described?.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(inPath, op.route).toEqual(Object.keys(op.params?.shape ?? {}).map(snake));
    }
  });

  it('names each span after its entry (docs/observability.md), uploads included', () => {
    expect(OPERATIONS['spvRequests.get'].span).toBe('spv_requests.get');
    expect(OPERATIONS['subscriptions.uploadSignedForm'].span).toBe('subscriptions.upload_signed_form');
    expect(OPERATIONS['subscriptions.uploadFundingReceipt'].span).toBe(
      'subscriptions.upload_funding_receipt',
    );
    expect(new Set(entries.map(([, op]) => op.span)).size).toBe(entries.length);
  });
});
