import { signWebhook, Webhook as WebWebhook } from '../../src/webhooks/index.js';
import { Webhook as NodeWebhook } from '../../src/webhooks/index.node.js';

/** The Standard Webhooks reference vector. */
export const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
} as const;

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const OTHER_SECRET = 'whsec_c2Vjb25kLXNlY3JldC1mb3Itcm90YXRpb24tdGVzdHM=';

/** A fixed "now" (ms) for tests; deliveries are stamped at this second unless told otherwise. */
export const NOW_MS = 1_750_000_000_000;
export const NOW_S = NOW_MS / 1000;

/** Both builds of the entry point: every behaviour test runs against each. */
export const BUILDS = [
  ['web crypto (default)', WebWebhook],
  ['node:crypto (node condition)', NodeWebhook],
] as const;

/** `spv_request.completed` as the fake API sends it: the approved SPV request resource. */
export const completedEvent = {
  type: 'spv_request.completed',
  timestamp: '2025-06-15T14:40:00.000Z',
  data: {
    spvRequestSlug: 'spvr_123',
    status: 'approved',
    templateId: 'tpl_equity_spv',
    templateVersion: '1.0.0',
    tenantSlug: 'tenant_1',
    clientId: 'client_123',
    attributes: { name: 'Alpha Growth SPV', currency: 'EUR' },
    createdAt: '2025-06-15T14:00:00.000Z',
    updatedAt: '2025-06-15T14:39:58.000Z',
    approvedAt: '2025-06-15T14:39:58.000Z',
    materialisedRefs: {
      opportunitySlug: 'opp_1',
      vehicleSlug: 'spv_alpha',
      spSlug: 'sp_1',
      spcSlug: 'spc_1',
    },
    feesAndCarry: {
      shareClasses: [
        {
          name: 'Class A',
          slug: 'class-a',
          managementFeePercent: '2.0',
          carryPercent: '20.0',
          setupFee: { amount: '500.00', currency: 'EUR' },
        },
      ],
    },
    futureField: { nested: true },
  },
};

/** A signed delivery: body string plus the three headers, as the service would send it. */
export async function delivery(
  event: unknown = completedEvent,
  {
    secret = SECRET,
    id = 'msg_1',
    timestamp = NOW_S,
  }: { secret?: string; id?: string; timestamp?: number } = {},
): Promise<{ body: string; headers: Record<string, string> }> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const headers = await signWebhook({ secret, id, timestamp, payload: body });
  return { body, headers: { ...headers } };
}
