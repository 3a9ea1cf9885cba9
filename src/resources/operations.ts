import { z } from 'zod';
import { tokenResponseSchema } from '../auth/token-response.js';
import {
  ContractCatalog,
  ContractCatalogList,
  ContractPrimitive,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractTemplate,
  ContractTemplateList,
  ContractVersionList,
} from '../schemas/contracts.js';
import { InvestorCreateResponse, InvestorInput } from '../schemas/investors.js';
import { JWT_BEARER_GRANT_TYPE, TokenInfo } from '../schemas/oauth.js';
import {
  SpvRequest,
  SpvRequestCreate,
  SpvRequestListParams,
  SpvRequestPage,
} from '../schemas/spv-requests.js';
import { SubscriptionCreateResponse, SubscriptionInput } from '../schemas/subscriptions.js';
import { HealthResponse, OpenApiDocument, RootResponse } from '../schemas/system.js';
import {
  FundingReceiptFields,
  FundingReceiptUploadResult,
  SignedFormUploadResult,
} from '../schemas/uploads.js';

/** A request body as the SDK sends it: its media type and the schema of what goes in it. */
export interface OperationBody {
  contentType: 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';
  schema: z.ZodType;
  /** The array the SDK splits into requests of `chunkSize` rows (`investors`, `subscriptions`). */
  chunkedArray?: string;
}

/**
 * One API operation as the SDK calls it. The resource modules build their requests from these entries, and
 * `client.doctor()` compares them with a server's `/openapi.json`: one table, so the two cannot drift.
 */
export interface Operation {
  /** The SDK method that calls it, as a partner writes it. */
  readonly sdk: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path template; `{name}` segments are the method's percent-encoded arguments. */
  readonly route: string;
  /** Schema of the 2xx body the SDK parses (checked per `responseValidation`). */
  readonly response: z.ZodType;
  /** `text` for the one HTML page; JSON otherwise. */
  readonly responseFormat?: 'json' | 'text';
  /** Query parameters the SDK sends (every one of them, on every call). */
  readonly query?: z.ZodObject;
  readonly body?: OperationBody;
  /** The SDK sends an `Idempotency-Key` on every call (yours or a generated one). */
  readonly idempotencyKey?: true;
  /**
   * Checked in this mode whatever the client's `responseValidation`: `strict` for tokens (nothing works
   * without them); `off` where the spec shows no shape at all, and the call's `select` recognises what it can
   * and hands anything else over as sent (contract versions and lists).
   */
  readonly validation?: 'strict' | 'off';
  /**
   * How the call authenticates: absent means a bearer token (so an operation added later fails closed);
   * `optional` sends one whenever the client has credentials (contracts declare no security requirement,
   * but a server may still want a token); `none` never does.
   */
  readonly auth?: 'optional' | 'none';
}

/** Stands for a file part of a `multipart/form-data` body. */
const filePart = () => z.string().meta({ format: 'binary', description: 'The file bytes' });
/** The signed form upload: the file part alone. */
const SignedFormBody = z.strictObject({ file: filePart() });
/** The funding receipt form: its fields and the file part. */
const FundingReceiptBody = FundingReceiptFields.extend({ file: filePart() });

const contractKind = <Kind extends string, L extends z.ZodType, D extends z.ZodType>(
  kind: Kind,
  list: L,
  one: D,
) =>
  ({
    list: {
      sdk: `client.contracts.${kind}.list()`,
      method: 'GET',
      route: `/v1/contracts/${kind}/{version}`,
      response: list,
      auth: 'optional',
      validation: 'off',
    },
    get: {
      sdk: `client.contracts.${kind}.get()`,
      method: 'GET',
      route: `/v1/contracts/${kind}/{version}/{name}`,
      response: one,
      auth: 'optional',
    },
  }) as const;

const templates = contractKind('templates', ContractTemplateList, ContractTemplate);
const catalogs = contractKind('catalogs', ContractCatalogList, ContractCatalog);
const primitives = contractKind('primitives', ContractPrimitiveList, ContractPrimitive);
const samples = contractKind('samples', ContractSampleList, ContractSample);

/**
 * Every operation of the API the SDK calls, keyed by its own name.
 *
 * @example
 * ```ts
 * OPERATIONS['spvRequests.get']; // { method: 'GET', route: '/v1/spv-requests/{slug}', response: SpvRequest, … }
 * ```
 */
export const OPERATIONS = {
  'system.root': {
    sdk: 'client.system.root()',
    method: 'GET',
    route: '/',
    response: RootResponse,
    auth: 'none',
  },
  'system.health': {
    sdk: 'client.system.health()',
    method: 'GET',
    route: '/public/hc',
    response: HealthResponse,
    auth: 'none',
  },
  'system.openapi': {
    sdk: 'client.system.openapi()',
    method: 'GET',
    route: '/openapi.json',
    response: OpenApiDocument,
    auth: 'none',
  },
  'system.docs': {
    sdk: 'client.system.docs()',
    method: 'GET',
    route: '/docs',
    response: z.string(),
    responseFormat: 'text',
    auth: 'none',
  },
  'oauth.token': {
    sdk: 'the token manager (every call that needs a token)',
    method: 'POST',
    route: '/v1/oauth2/tokens',
    response: tokenResponseSchema,
    validation: 'strict',
    auth: 'none',
    body: {
      contentType: 'application/x-www-form-urlencoded',
      schema: z.union([
        z.strictObject({ grant_type: z.literal(JWT_BEARER_GRANT_TYPE), assertion: z.string() }),
        z.strictObject({ grant_type: z.literal('refresh_token'), refresh_token: z.string() }),
      ]),
    },
  },
  'oauth.info': { sdk: 'client.oauth.info()', method: 'GET', route: '/v1/oauth2/info', response: TokenInfo },
  'contracts.versions': {
    sdk: 'client.contracts.versions()',
    method: 'GET',
    route: '/v1/contracts',
    response: ContractVersionList,
    auth: 'optional',
    validation: 'off',
  },
  'contracts.templates.list': templates.list,
  'contracts.templates.get': templates.get,
  'contracts.catalogs.list': catalogs.list,
  'contracts.catalogs.get': catalogs.get,
  'contracts.primitives.list': primitives.list,
  'contracts.primitives.get': primitives.get,
  'contracts.samples.list': samples.list,
  'contracts.samples.get': samples.get,
  'spvRequests.create': {
    sdk: 'client.spvRequests.create()',
    method: 'POST',
    route: '/v1/spv-requests',
    response: SpvRequest,
    body: { contentType: 'application/json', schema: SpvRequestCreate },
    idempotencyKey: true,
  },
  'spvRequests.list': {
    sdk: 'client.spvRequests.list()',
    method: 'GET',
    route: '/v1/spv-requests',
    response: SpvRequestPage,
    query: SpvRequestListParams,
  },
  'spvRequests.get': {
    sdk: 'client.spvRequests.get()',
    method: 'GET',
    route: '/v1/spv-requests/{slug}',
    response: SpvRequest,
  },
  'spvRequests.cancel': {
    sdk: 'client.spvRequests.cancel()',
    method: 'DELETE',
    route: '/v1/spv-requests/{slug}',
    response: SpvRequest,
  },
  'investors.create': {
    sdk: 'client.investors.create()',
    method: 'POST',
    route: '/v1/investors',
    response: InvestorCreateResponse,
    body: {
      contentType: 'application/json',
      schema: z.strictObject({ investors: z.array(InvestorInput) }),
      chunkedArray: 'investors',
    },
    idempotencyKey: true,
  },
  'subscriptions.create': {
    sdk: 'client.subscriptions.create()',
    method: 'POST',
    route: '/v1/spvs/{spv_slug}/subscriptions',
    response: SubscriptionCreateResponse,
    body: {
      contentType: 'application/json',
      schema: z.strictObject({ subscriptions: z.array(SubscriptionInput) }),
      chunkedArray: 'subscriptions',
    },
    idempotencyKey: true,
  },
  'subscriptions.uploadSignedForm': {
    sdk: 'client.subscriptions.uploadSignedForm()',
    method: 'POST',
    route: '/v1/spvs/{spv_slug}/subscription/{person_id}/forms',
    response: SignedFormUploadResult,
    body: { contentType: 'multipart/form-data', schema: SignedFormBody },
    idempotencyKey: true,
  },
  'subscriptions.uploadFundingReceipt': {
    sdk: 'client.subscriptions.uploadFundingReceipt()',
    method: 'POST',
    route: '/v1/spvs/{spv_slug}/subscription/{person_id}/fundings',
    response: FundingReceiptUploadResult,
    body: { contentType: 'multipart/form-data', schema: FundingReceiptBody },
    idempotencyKey: true,
  },
} as const satisfies Record<string, Operation>;

/** The name of one of {@link OPERATIONS}. */
export type OperationName = keyof typeof OPERATIONS;

/**
 * What the request pipeline needs of `operation` for one call: method, the route with `params` filled in
 * (percent-encoded), the route template (warnings are said once per route) and the response schema.
 *
 * @example
 * ```ts
 * requester.request({ ...callOf(OPERATIONS['spvRequests.get'], { slug }), options });
 * ```
 */
export function callOf<O extends Operation>(
  operation: O,
  params: Record<string, string> = {},
): {
  method: O['method'];
  path: string;
  route: string;
  operation: string | undefined;
  response: O['response'];
  validation: 'strict' | 'off' | undefined;
  auth: 'bearer' | 'optional' | 'none';
} {
  const { method, route, response, validation, auth = 'bearer' } = operation;
  const name = operationName(operation);
  return { method, path: fillRoute(route, params), route, operation: name, response, validation, auth };
}

let names: Map<Operation, string> | undefined;

/**
 * The operation's name in traces: its key in {@link OPERATIONS} in snake_case (`spv_requests.create`,
 * `subscriptions.upload_signed_form`); `undefined` for an operation outside the table.
 */
export function operationName(operation: Operation): string | undefined {
  names ??= new Map(
    Object.entries(OPERATIONS).map(([key, op]) => [op, key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
  );
  return names.get(operation);
}

function fillRoute(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${route}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
