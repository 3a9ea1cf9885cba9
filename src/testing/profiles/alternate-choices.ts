/** One spec gap where the alternate profile answers differently from the default one. */
export interface ProfileChoice {
  /** Stable id (`timestamps`, `contracts-auth`…). */
  readonly id: string;
  /** What the spec leaves open ("not shown"). */
  readonly what: string;
  /** The `operationId`s of `/openapi.json` where the difference shows; empty when it is every operation. */
  readonly operations: readonly string[];
  /** Whether the two profiles' `/openapi.json` differ for it (false: behaviour only, such as list order). */
  readonly inOpenApi: boolean;
  readonly default: string;
  readonly alternate: string;
}

const SPV = ['createSpvRequest', 'getSpvRequest', 'cancelSpvRequest'];
const UPLOADS = ['uploadSignedForm', 'uploadFundingReceipt'];
const CONTRACT_DOCS = ['Template', 'Catalog', 'Primitive', 'Sample'].flatMap((k) => [`list${k}s`, `get${k}`]);
const CONTRACTS = ['listContractVersions', ...CONTRACT_DOCS];
const TOKEN = ['createToken'];

const choice = (
  id: string,
  what: string,
  operations: readonly string[],
  inOpenApi: boolean,
  defaultAnswer: string,
  alternate: string,
): ProfileChoice => ({ id, what, operations, inOpenApi, default: defaultAnswer, alternate });

/**
 * Every difference of `new FakePartnerEquity({ profile: 'alternate' })` from the default profile, one entry
 * per spec gap, machine-readable: a tool comparing a server's `/openapi.json` with the SDK's expectations
 * should report, against the alternate profile, exactly the entries with `inOpenApi: true`. Everything the
 * spec states (paths, methods, status codes, stated fields, idempotency of JSON writes) is the same.
 */
export const ALTERNATE_PROFILE_CHOICES: readonly ProfileChoice[] = [
  choice(
    'absent-fields-null',
    'Conditional and post-approval fields without a value',
    [...SPV, 'createInvestors', 'createSubscriptions'],
    true,
    'omitted (rejectionReason, cancelledAt, approvedAt, materialisedRefs, feesAndCarry; servicePersonId of failed rows, error of good rows; partnerSubscriptionId)',
    'always sent, null when there is no value',
  ),
  choice(
    'timestamps',
    'Form of ISO 8601 timestamps',
    [...SPV, 'listSpvRequests', ...UPLOADS],
    true,
    'UTC with Z and milliseconds: 2026-11-23T18:00:00.123Z',
    '+00:00 offset and microseconds: 2026-11-23T18:00:00.123000+00:00',
  ),
  choice(
    'spv-request-list-entries',
    'Element shape of GET /v1/spv-requests documents',
    ['listSpvRequests'],
    true,
    'whole SPV requests',
    'summaries: { spvRequestSlug, status, templateId, createdAt }',
  ),
  choice(
    'spv-request-list-count',
    'What count of a list page counts, GET /v1/spv-requests and every other list (the spec: count | integer, no note)',
    ['listSpvRequests'],
    false,
    'every matching request (the list total)',
    'the documents on this page',
  ),
  choice(
    'spv-request-list-order',
    'Order of GET /v1/spv-requests and every other list',
    ['listSpvRequests'],
    false,
    'newest first',
    'oldest first',
  ),
  choice(
    'spv-request-create-body',
    'Create payload fields beyond templateId',
    ['createSpvRequest'],
    true,
    '{ templateId, templateVersion?, attributes }; unknown fields ignored',
    'the same, templateVersion may be null; an unknown field is a 422 extra_forbidden',
  ),
  choice(
    'setup-fee',
    'Inner fields of setupFee',
    SPV,
    true,
    '{ amount, currency }',
    '{ value, currencyCode }',
  ),
  choice(
    'share-class-slugs',
    'Share class slugs',
    SPV,
    false,
    'the slugified name (Class A → class-a)',
    'an opaque id (shc_…)',
  ),
  choice(
    'root',
    'GET / body',
    ['getRoot'],
    true,
    '{ name, apiVersion, version, docsUrl, openapiUrl }',
    "{ message: 'Partner Equity API', docs: '/docs' }",
  ),
  choice(
    'health',
    'GET /public/hc body',
    ['healthCheck'],
    true,
    "{ status: 'ok', checkedAt }",
    "{ status: 'healthy' }",
  ),
  choice(
    'token-info',
    'GET /v1/oauth2/info field names',
    ['getTokenInfo'],
    true,
    '{ clientId, clientType, applicationName, issuedAt, expiresAt } (ISO timestamps)',
    '{ active, client_id, client_type, application_name, token_type, iat, exp } (RFC 7662 style, Unix seconds)',
  ),
  choice(
    'contracts-auth',
    'Security of /v1/contracts* (the spec declares no security requirement)',
    CONTRACTS,
    true,
    'open: no token needed',
    'bearer token required: 401 without one',
  ),
  choice(
    'contract-versions',
    'GET /v1/contracts body',
    ['listContractVersions'],
    true,
    '{ latest, versions: [{ version, releasedAt, deprecated }] }',
    "a plain array of version names: ['2024-01', '2025-06']",
  ),
  choice(
    'contract-documents',
    'Fields of contract documents',
    CONTRACT_DOCS,
    true,
    '{ name, version, title, description, schema | attributes: [{ name, primitive, description }] | templateId + payload }',
    '{ templateId | catalogId | primitiveId | sampleId, contractVersion, jsonSchema | attributes: [{ key, primitiveType }] | templateId + body }; no title or description',
  ),
  choice(
    'contract-lists',
    'Shape of contract document lists',
    CONTRACT_DOCS.filter((op) => op.startsWith('list')),
    true,
    '{ version, templates | catalogs | primitives | samples: [...] }',
    'templates: an object keyed by template id; catalogs, primitives and samples: a plain array of documents',
  ),
  choice(
    'investor-fields',
    'Which investor fields are required, and their bounds',
    ['createInvestors'],
    true,
    'all six required; names 1-100, email as the SDK checks it; birth date after 1900; country upper case',
    'partnerInvestorId and email required, the rest optional or null; 255 characters at most (email as the SDK checks it); any past birth date; country in either case',
  ),
  choice(
    'investor-statuses',
    'Investor row status values',
    ['createInvestors'],
    true,
    'created, existing, failed',
    'success, already_exists, error',
  ),
  choice(
    'investor-error-codes',
    'Investor row error codes',
    ['createInvestors'],
    true,
    'missing_field, invalid_field, invalid_email, invalid_date_of_birth, invalid_country, duplicate_in_request, temporarily_unavailable (field: partnerInvestorId)',
    'field_required, field_invalid, email_invalid, date_of_birth_invalid, country_invalid, duplicate_row, try_again_later (field: null)',
  ),
  choice(
    'investor-row-limit',
    'Most rows per POST /v1/investors',
    ['createInvestors'],
    true,
    '500 (422 above)',
    '1000 (422 above; at least 500 so the SDK default chunk of 500 fits)',
  ),
  choice(
    'subscription-statuses',
    'Subscription status values',
    ['createSubscriptions'],
    true,
    'awaiting-signed-form, awaiting-funding, funding-received, completed, cancelled',
    'Pending, Signed, Funded, Completed, Cancelled',
  ),
  choice(
    'subscription-lump-sum',
    'Inner fields of lumpSum in subscription results',
    ['createSubscriptions'],
    true,
    '{ currency, value }',
    '{ amount, currencyCode }',
  ),
  choice(
    'subscription-row-limit',
    'Most rows per POST /v1/spvs/{spv_slug}/subscriptions',
    ['createSubscriptions'],
    true,
    '500 (422 above)',
    '1000 (422 above; at least 500 so the SDK default chunk of 500 fits)',
  ),
  choice(
    'file-urls',
    'Form of subscriptionFormUrl and fundingReceiptUrl',
    UPLOADS,
    true,
    'absolute: {baseUrl}/files/{fileId}/{name}',
    'relative to the base URL: /files/{fileId}/{name}',
  ),
  choice(
    'upload-idempotency',
    'Idempotency-Key on uploads (the spec lists none for them)',
    UPLOADS,
    true,
    'optional key honoured: a repeat replays the first response',
    'no key read: every upload is stored anew (it replaces the previous document)',
  ),
  choice(
    'funding-receipt-types',
    'Allowed content types of the funding receipt file',
    ['uploadFundingReceipt'],
    true,
    'PDF, JPEG, PNG, WEBP (415 otherwise)',
    'any non-empty file',
  ),
  choice(
    'partner-error-codes',
    'code values of the partner error envelope',
    [],
    true,
    'snake_case (invalid_token, not_provisioned, idempotency_key_conflict…)',
    'upper case, other words (UNAUTHENTICATED, PARTNER_API_NOT_ENABLED, IDEMPOTENCY_KEY_REUSED…)',
  ),
  choice(
    'attribute-errors',
    'validationErrors[] attribute paths and codes of 400 responses',
    ['createSpvRequest', 'createSubscriptions', 'uploadFundingReceipt'],
    false,
    'shareClasses[0].carryPercent; required, invalid_format, unknown_share_class…',
    'shareClasses.0.carryPercent; missing, string_pattern_mismatch, share_class_not_found…',
  ),
  choice(
    'error-ids',
    'errorId and X-Request-Id values',
    [],
    true,
    'err_… and req_… (prefix and 20 base-36 characters)',
    'UUIDs',
  ),
  choice(
    'www-authenticate',
    'WWW-Authenticate of 401 responses',
    [],
    false,
    'Bearer error="invalid_token", error_description="<code>"',
    'Bearer',
  ),
  choice(
    'unknown-route',
    'Unknown paths and known paths with another method',
    [],
    false,
    '404 partner envelope with code not_found for both',
    '404 {"detail":"Not Found"}; 405 {"detail":"Method Not Allowed"} with Allow for another method',
  ),
  choice(
    'assertion-algorithms',
    'Accepted JWS alg of assertions',
    TOKEN,
    false,
    'EdDSA and Ed25519 (RFC 9864)',
    'EdDSA only',
  ),
  choice(
    'assertion-audience',
    'An aud claim given as a one-element array',
    TOKEN,
    false,
    'accepted as its string',
    'refused (401)',
  ),
  choice('clock-skew', '"A few seconds" of clock skew', TOKEN, false, '5 s', '10 s'),
  choice(
    'assertion-lifetime',
    'Longest accepted exp - iat',
    TOKEN,
    false,
    '300 s',
    '60 s (the recommended lifetime; the SDK uses exactly 60)',
  ),
  choice('json-body-limit', 'Largest JSON or form body', [], false, '5 MiB (413 above)', '2 MiB (413 above)'),
  choice(
    'webhook-payloads',
    'Payload fields of each event (other than partnerInvestorId)',
    [],
    false,
    'full resources',
    'minimal payloads: identifying fields only, unknown ones null',
  ),
];
