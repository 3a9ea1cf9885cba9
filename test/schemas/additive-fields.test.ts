import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PartnerEquity } from '../../src/client.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { useTestServer } from '../helpers/test-server.js';

// The spec: "all additions are backwards-compatible". A field the service adds in a minor release must reach
// the caller in every responseValidation mode, strict included: no response schema may strip unknown keys.

const server = useTestServer();

/** Paths (in the JSON Schema of a response) of objects that drop keys they do not name. */
function strippingObjects(node: unknown, path = '$'): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const found: string[] = [];
  const record = node as Record<string, unknown>;
  if (record['type'] === 'object' && record['additionalProperties'] === false) found.push(path);
  for (const [key, value] of Object.entries(record)) found.push(...strippingObjects(value, `${path}.${key}`));
  return found;
}

describe('fields added by the service reach the caller', () => {
  it.each(Object.entries(OPERATIONS))(
    '%s: its response schema keeps unknown keys at every depth',
    (_name, op) => {
      const schema = z.toJSONSchema(op.response, { io: 'output', unrepresentable: 'any' });
      expect(strippingObjects(schema)).toEqual([]);
    },
  );

  it('in strict mode, a new field at the top and in a nested object comes back (spvRequests.get)', async () => {
    const sdk = new PartnerEquity({
      baseUrl: server().url,
      responseValidation: 'strict',
      authenticator: { getToken: async () => 'at_1', onUnauthorized: async () => false },
    });
    server().reply({
      body: {
        spvRequestSlug: 'spvr_1',
        status: 'approved',
        templateId: 'spv-standard',
        templateVersion: '2025-06',
        tenantSlug: 't',
        clientId: 'c',
        attributes: {},
        createdAt: '2026-11-23T18:00:00Z',
        updatedAt: '2026-11-23T18:00:00Z',
        addedInMinorRelease: { kept: true },
        materialisedRefs: {
          opportunitySlug: 'o',
          spSlug: 'sp',
          spcSlug: 'spc',
          vehicleSlug: 'spv_1',
          newRef: 'r_1',
        },
      },
    });
    const request = await sdk.spvRequests.get('spvr_1');
    expect(request).toMatchObject({
      addedInMinorRelease: { kept: true },
      materialisedRefs: { vehicleSlug: 'spv_1', newRef: 'r_1' },
    });
  });
});
