import { z } from 'zod';
import { tokenResponseSchema } from '../auth/token-response.js';
import type { Operation } from '../core/request/request-spec.js';
import * as contracts from '../schemas/contracts.js';
import { InvestorCreateResponse, InvestorInput, investorRowResult } from '../schemas/investors.js';
import { JWT_BEARER_GRANT_TYPE, TokenInfo } from '../schemas/oauth.js';
import { PathParam } from '../schemas/request-params.js';
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
import { BulkOptions, resultRows } from './bulk-options.js';
import { contractVersionsOf, documentsOf } from './contract-lists.js';
import { SignedFormOptions } from './upload-options.js';

/** Stands for a file part of a `multipart/form-data` body. */
const filePart = z.string().meta({ format: 'binary', description: 'The file bytes' });
/** The signed form upload: the file part alone. */
const SignedFormBody = z.strictObject({ file: filePart });
/** The funding receipt form: its fields and the file part. */
const FundingReceiptBody = z.strictObject({ ...FundingReceiptFields.shape, file: filePart });

const Version = z.strictObject({ version: PathParam });
const Document = z.strictObject({ version: PathParam, name: PathParam });
const Slug = z.strictObject({ slug: PathParam });
const Spv = z.strictObject({ spvSlug: PathParam });
const Person = z.strictObject({ spvSlug: PathParam, personId: PathParam });

const contractKind = <Kind extends string, L extends z.ZodType, D extends z.ZodType>(
  kind: Kind,
  list: L,
  one: D,
) =>
  ({
    list: {
      method: 'GET',
      route: `/v1/contracts/${kind}/{version}`,
      params: Version,
      response: list,
      select: (body: unknown) => documentsOf<z.output<D>>(body, kind),
      auth: 'optional',
      validation: 'off',
    },
    get: {
      method: 'GET',
      route: `/v1/contracts/${kind}/{version}/{name}`,
      params: Document,
      response: one,
      auth: 'optional',
    },
  }) as const;

const templates = contractKind('templates', contracts.ContractTemplateList, contracts.ContractTemplate);
const catalogs = contractKind('catalogs', contracts.ContractCatalogList, contracts.ContractCatalog);
const primitives = contractKind('primitives', contracts.ContractPrimitiveList, contracts.ContractPrimitive);
const samples = contractKind('samples', contracts.ContractSampleList, contracts.ContractSample);

/** Every operation of the API the SDK calls, keyed by its own name. */
export const OPERATIONS = withSpans({
  'system.root': { method: 'GET', route: '/', response: RootResponse, auth: 'none' },
  'system.health': { method: 'GET', route: '/public/hc', response: HealthResponse, auth: 'none' },
  'system.openapi': { method: 'GET', route: '/openapi.json', response: OpenApiDocument, auth: 'none' },
  'system.docs': {
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
  'oauth.info': { method: 'GET', route: '/v1/oauth2/info', response: TokenInfo },
  'contracts.versions': {
    method: 'GET',
    route: '/v1/contracts',
    response: contracts.ContractVersionList,
    select: contractVersionsOf,
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
    method: 'POST',
    route: '/v1/spv-requests',
    response: SpvRequest,
    body: { contentType: 'application/json', schema: SpvRequestCreate },
    idempotencyKey: true,
  },
  'spvRequests.list': {
    method: 'GET',
    route: '/v1/spv-requests',
    response: SpvRequestPage,
    query: SpvRequestListParams,
  },
  'spvRequests.get': {
    method: 'GET',
    route: '/v1/spv-requests/{slug}',
    params: Slug,
    response: SpvRequest,
  },
  'spvRequests.cancel': {
    method: 'DELETE',
    route: '/v1/spv-requests/{slug}',
    params: Slug,
    response: SpvRequest,
  },
  'investors.create': {
    method: 'POST',
    route: '/v1/investors',
    options: BulkOptions,
    response: InvestorCreateResponse,
    // With responseValidation 'warn' or 'off' the body may not match; rows without a result then fail as
    // `missing_result` (retryable) instead of being lost.
    select: (body: InvestorCreateResponse) => resultRows(body, investorRowResult),
    body: {
      contentType: 'application/json',
      schema: z.strictObject({ investors: z.array(InvestorInput) }),
      chunkedArray: 'investors',
    },
    idempotencyKey: true,
  },
  'subscriptions.create': {
    method: 'POST',
    route: '/v1/spvs/{spv_slug}/subscriptions',
    params: Spv,
    options: BulkOptions,
    response: SubscriptionCreateResponse,
    select: (body: SubscriptionCreateResponse) => resultRows(body),
    body: {
      contentType: 'application/json',
      schema: z.strictObject({ subscriptions: z.array(SubscriptionInput) }),
      chunkedArray: 'subscriptions',
    },
    idempotencyKey: true,
  },
  'subscriptions.uploadSignedForm': {
    method: 'POST',
    route: '/v1/spvs/{spv_slug}/subscription/{person_id}/forms',
    params: Person,
    options: SignedFormOptions,
    response: SignedFormUploadResult,
    body: { contentType: 'multipart/form-data', schema: SignedFormBody },
    idempotencyKey: true,
  },
  'subscriptions.uploadFundingReceipt': {
    method: 'POST',
    route: '/v1/spvs/{spv_slug}/subscription/{person_id}/fundings',
    params: Person,
    response: FundingReceiptUploadResult,
    body: { contentType: 'multipart/form-data', schema: FundingReceiptBody },
    idempotencyKey: true,
  },
} as const satisfies Record<string, Entry>);

/** The name of one of {@link OPERATIONS}. */
export type OperationName = keyof typeof OPERATIONS;

export type { Operation };

/** An entry as written: `sdk` defaults to `client.<key>()`; the span name is derived from the key. */
type Entry = Omit<Operation, 'span' | 'sdk'> & { sdk?: string };
type Named = { sdk: string; span: string };

// Each entry's span name is its key in snake_case (`spv_requests.create`, `subscriptions.upload_signed_form`).
function withSpans<T extends Record<string, Entry>>(table: T): { [K in keyof T]: T[K] & Named } {
  const named = Object.entries(table).map(([key, op]) => [
    key,
    { sdk: `client.${key}()`, ...op, span: key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) },
  ]);
  return Object.fromEntries(named) as { [K in keyof T]: T[K] & Named };
}
