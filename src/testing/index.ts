/**
 * {@link FakePartnerEquity}: a stateful fake of the whole Partner Equity API for your tests, on a loopback
 * port or as MSW handlers, with admin controls, a manual clock, fault injection and signed webhooks.
 *
 * @module @partner-equity/sdk/testing
 */
// `@partner-equity/sdk/testing`: the fake Partner Equity API. Needs the peer dependency `msw` (3.x).

export { FakeAdmin, type FakeSnapshot, type FakeWebhookTarget, type PublicJwk } from './admin.js';
export type { FakeAdminApiOptions } from './admin-api/admin-api-gate.js';
export type {
  DeliveryListFilter,
  FakeAdminList,
  PersonListFilter,
  SpvRequestListFilter,
  SubscriptionListFilter,
} from './admin-lists.js';
export type {
  FakeDelivery,
  FakeDeliveryAttempt,
  FakePerson,
  FakeSubscription,
  FakeUpload,
} from './admin-views.js';
export {
  FakeAdminApiError,
  type FakeAdminClient,
  type FakeAdminClientOptions,
  type FakeAdminSettings,
  fakeAdminClient,
} from './fake-admin-client.js';
export type { FakePartnerEquityOptions } from './fake-options.js';
export {
  type CreatePartnerOptions,
  type FakePartnerCredentials,
  FakePartnerEquity,
} from './fake-partner-equity.js';
export type { FakeRateLimitOption } from './fake-rate-limit.js';
export { FakeWebhooks } from './fake-webhooks.js';
export type { FaultInjector, FaultMatch, FaultSpec, InjectedFault, PendingFault } from './fault-injector.js';
export { type FaultJson, parseFault } from './fault-text.js';
export { type CancelTimer, ManualClock } from './manual-clock.js';
export { ALTERNATE_PROFILE_CHOICES, type ProfileChoice } from './profiles/alternate-choices.js';
export type { FakeProfileName } from './profiles/fake-profile.js';
export type {
  FakeRequestCounts,
  FakeRequestReport,
  FakeRequestSummary,
  RecordedRequest,
  TokenRequestRecord,
} from './request-log.js';
export type {
  FundingRecord,
  PersonRecord,
  SpvRecord,
  SubscriptionRecord,
  SubscriptionState,
  UploadRecord,
} from './state/records.js';
export type { FakeSeed, FakeSeedSpv } from './state/seed-spvs.js';
export { FakeAdminError } from './state/spv-request-lifecycle.js';
export type { FakeWebhookOptions } from './webhooks/fake-webhook-options.js';
export { WEBHOOK_RETRY_DELAYS_MS } from './webhooks/webhook-sender.js';
export type {
  DeliveryAttempt,
  EmittedEvent,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks/webhook-types.js';
// Resource types the admin controls return, re-exported so declarations never point into private chunks.
export type { MaterialisedRefs, ShareClass, SpvRequest } from './wire/spv-requests.js';
export type { SubscriptionResult } from './wire/subscriptions.js';
