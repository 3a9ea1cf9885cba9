import { z } from 'zod';
import type { WebhookSchemeInput } from '../../webhooks/scheme/webhook-scheme.js';
import type { FakeAdmin } from '../admin.js';
import { compilePath } from '../route-matcher.js';
import { AdminInputError, parseListFilter } from './list-filter.js';

/** What one admin request sees. */
export interface AdminRequest {
  readonly admin: FakeAdmin;
  readonly url: URL;
  readonly params: Record<string, string>;
  /** The JSON body, `{}` when there is none (the gate lets in `application/json` bodies only). */
  body(): Promise<Record<string, unknown>>;
}

/** One admin endpoint, under the API's prefix. */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT';
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

const ok = (body: unknown, status = 200) => ({ status, body });
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
  route('GET', '/settings', 'The admin settings', async ({ admin }) => ok(settings(admin))),
  route('PUT', '/settings', 'Change settings: {"autoApproveSpvRequests": true}', async ({ admin, body }) => {
    const input = parse(SettingsInput, await body());
    if (input.autoApproveSpvRequests !== undefined)
      admin.autoApproveSpvRequests = input.autoApproveSpvRequests;
    return ok(settings(admin));
  }),
];
