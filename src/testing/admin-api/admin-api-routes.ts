import { z } from 'zod';
import { isLoopbackHost } from '../../core/transport/loopback-host.js';
import type { WebhookSchemeInput } from '../../webhooks/scheme/webhook-scheme.js';
import type { FakeAdmin } from '../admin.js';
import type { FaultInjector } from '../fault-injector.js';
import { faultJson, parseFault } from '../fault-text.js';
import type { RecordedRequest } from '../request-log.js';
import { requestReport } from '../request-log.js';
import { compilePath } from '../route-matcher.js';
import { FakeAdminError } from '../state/spv-request-lifecycle.js';
import { AdminInputError, parseListFilter } from './list-filter.js';

/** What one admin request sees. */
export interface AdminRequest {
  readonly admin: FakeAdmin;
  /** The fake's fault injector (`fake.faults`). */
  readonly faults: FaultInjector;
  /** Every request the fake answered (`fake.requests`). */
  readonly requests: readonly RecordedRequest[];
  readonly url: URL;
  /** The request's headers (`Host` says which name the caller used). */
  readonly headers: Headers;
  readonly params: Record<string, string>;
  /** The JSON body, `{}` when there is none (the gate lets in `application/json` bodies only). */
  body(): Promise<Record<string, unknown>>;
}

/** One admin endpoint, under the API's prefix. */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  match: (pathname: string) => Record<string, string> | undefined;
  handle(request: AdminRequest): Promise<{ status: number; body: unknown }>;
}

const PublicJwk = z.looseObject({ kty: z.string(), crv: z.string(), x: z.string() });
const ClientInput = z.strictObject({
  clientId: z.string().min(1),
  issuer: z.string().min(1),
  publicKey: z.union([z.string().min(1), PublicJwk]),
  applicationName: z.string().min(1).optional(),
  tenantSlug: z.string().min(1).optional(),
  provisioned: z.boolean().optional(),
});
const RejectInput = z.strictObject({ reason: z.string().min(1).optional() });
const CompleteInput = z.strictObject({ emitEvent: z.boolean().optional() });
const SettingsInput = z.strictObject({ autoApproveSpvRequests: z.boolean().optional() });
// A scheme as `Webhook` takes it: a preset name or a description object (checked by the webhooks entry).
const WebhookTargetInput = z.strictObject({
  url: z.string().min(1).nullable().optional(),
  secret: z.string().min(1).optional(),
  scheme: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new AdminInputError(
    result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '),
  );
}

/** `[::1]:4010` → `[::1]`, `localhost:4010` → `localhost`: the name in a Host header. */
function hostName(host: string | null): string | undefined {
  if (host === null) return undefined;
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
}

const ok = (body: unknown, status = 200) => ({ status, body });

/** `?limit=` of `GET /requests`: 0 to 1000, 100 when absent. */
function requestLimit(text: string | null): number {
  if (text === null) return 100;
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit > 1000) throw new AdminInputError('limit: a whole number from 0 to 1000');
  return limit;
}
const pendingFaults = (faults: FaultInjector) => ({
  faults: faults.pending().map(({ spec, ...fault }) => ({
    ...fault,
    ...(spec === undefined ? {} : { spec: faultJson(spec) }),
  })),
});
const settings = (admin: FakeAdmin) => ({ autoApproveSpvRequests: admin.autoApproveSpvRequests });

function route(
  method: AdminRoute['method'],
  path: string,
  summary: string,
  handle: AdminRoute['handle'],
): AdminRoute {
  return { method, path, summary, match: compilePath(path), handle };
}

/** The admin API: what the service's back office does, as JSON over HTTP (paths relative to the prefix). */
export const adminRoutes: AdminRoute[] = [
  route('GET', '/spv-requests', 'SPV requests, newest first, with counts', async ({ admin, url }) =>
    ok(admin.listSpvRequests(parseListFilter('spvRequests', url.searchParams))),
  ),
  route('POST', '/spv-requests/{slug}/approve', 'Approve (emits spv_request.completed)', async (r) =>
    ok(r.admin.approveSpvRequest(r.params['slug']!)),
  ),
  route('POST', '/spv-requests/{slug}/reject', 'Reject; body {"reason"} optional', async (r) => {
    const { reason } = parse(RejectInput, await r.body());
    return ok(r.admin.rejectSpvRequest(r.params['slug']!, reason));
  }),
  route('POST', '/spv-requests/{slug}/cancel', 'Cancel as an administrator', async (r) =>
    ok(r.admin.cancelSpvRequest(r.params['slug']!)),
  ),
  route('GET', '/subscriptions', 'Subscriptions, newest first, with counts', async ({ admin, url }) =>
    ok(admin.listSubscriptions(parseListFilter('subscriptions', url.searchParams))),
  ),
  route(
    'POST',
    '/subscriptions/{slug}/complete',
    'Mark Completed (emits subscription.completed); body {"emitEvent": false} leaves it to the reconciler',
    async (r) => {
      const { emitEvent } = parse(CompleteInput, await r.body());
      return ok(
        r.admin.completeSubscription(r.params['slug']!, emitEvent === undefined ? {} : { emitEvent }),
      );
    },
  ),
  route('POST', '/subscriptions/{slug}/cancel', 'Cancel (later uploads answer 409)', async (r) =>
    ok(r.admin.cancelSubscription(r.params['slug']!)),
  ),
  route(
    'POST',
    '/clients',
    'Register a client: {"clientId", "issuer", "publicKey": PEM or JWK}',
    async ({ admin, body }) => {
      const input = parse(ClientInput, await body());
      admin.registerClient(input);
      const { clientId, issuer, applicationName = clientId, provisioned = true } = input;
      return ok({ clientId, issuer, applicationName, provisioned }, 201);
    },
  ),
  route('GET', '/persons', 'Investors (persons), newest first', async ({ admin, url }) =>
    ok(admin.listPersons(parseListFilter('persons', url.searchParams))),
  ),
  route('GET', '/investors', 'The same list as /persons', async ({ admin, url }) =>
    ok(admin.listPersons(parseListFilter('persons', url.searchParams))),
  ),
  route('GET', '/deliveries', 'Webhook deliveries, newest first, with counts per state', async (r) =>
    ok(r.admin.listDeliveries(parseListFilter('deliveries', r.url.searchParams))),
  ),
  route('GET', '/snapshot', 'Everything the fake holds (times ISO 8601)', async ({ admin }) =>
    ok(admin.snapshot()),
  ),
  route('GET', '/webhooks', 'Where events go and the signing scheme (never the secret)', async (r) =>
    ok(r.admin.webhookTarget()),
  ),
  route(
    'PUT',
    '/webhooks',
    'Change {"url" (null: stop), "secret", "scheme"}; omitted ones are kept; a generated secret is shown once',
    async ({ admin, body }) => {
      const { url, secret, scheme } = parse(WebhookTargetInput, await body());
      return ok(admin.setWebhookTarget({ url, secret, scheme: scheme as WebhookSchemeInput | undefined }));
    },
  ),
  route(
    'GET',
    '/webhooks/secret',
    'The signing secret, to requests addressed to this machine (localhost, 127.0.0.1, [::1]) only',
    async ({ admin, url, headers }) => {
      if (!isLoopbackHost(hostName(headers.get('host')) ?? url.hostname)) {
        throw new FakeAdminError('The webhook secret is shown on loopback addresses only', 'not_found');
      }
      return ok({ secret: admin.webhookSecret() ?? null });
    },
  ),
  route('GET', '/faults', 'Faults not yet fired as often as asked', async ({ faults }) =>
    ok(pendingFaults(faults)),
  ),
  route(
    'POST',
    '/faults',
    'Inject a fault: {"fault": "POST /v1/investors 503 x2"}, or {"match": {...}, "status", "times", ...}',
    async ({ faults, body }) => {
      const input = await body();
      const fault = typeof input['fault'] === 'string' ? input['fault'] : input;
      faults.inject(parseFault(fault));
      return ok(pendingFaults(faults), 201);
    },
  ),
  route('DELETE', '/faults', 'Remove every fault', async ({ faults }) => {
    faults.clear();
    return ok(pendingFaults(faults));
  }),
  route(
    'DELETE',
    '/faults/{id}',
    'Remove one fault (its id from GET /faults)',
    async ({ faults, params }) => {
      if (!faults.remove(Number(params['id']))) {
        throw new FakeAdminError(`No pending fault ${params['id']}`, 'not_found');
      }
      return ok(pendingFaults(faults));
    },
  ),
  route(
    'GET',
    '/requests',
    'What the fake answered: counts by status and by route and status, and the newest requests (?limit=, default 100; 0 for counts only)',
    async ({ requests, url }) => ok(requestReport(requests, requestLimit(url.searchParams.get('limit')))),
  ),
  route('GET', '/settings', 'The admin settings', async ({ admin }) => ok(settings(admin))),
  route('PUT', '/settings', 'Change settings: {"autoApproveSpvRequests": true}', async ({ admin, body }) => {
    const input = parse(SettingsInput, await body());
    if (input.autoApproveSpvRequests !== undefined)
      admin.autoApproveSpvRequests = input.autoApproveSpvRequests;
    return ok(settings(admin));
  }),
];
