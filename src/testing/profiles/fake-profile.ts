import type { z } from 'zod';
import type { RouteResult } from '../route-result.js';
import type { ContractDocumentKind } from '../wire/contracts.js';

/**
 * Which server the fake plays where the spec says "not shown". `'default'` is the fake's own choice for
 * each gap (`docs/spec-gaps.md` lists them); `'alternate'` makes another plausible choice for every one of them —
 * a second server written from the same spec (think FastAPI/Pydantic: `null` for absent fields, `+00:00`
 * timestamps with microseconds, summary list entries, contracts behind a bearer token…). Whatever the
 * profile, everything the spec states (paths, status codes, stated fields, idempotency) is the same.
 */
export type FakeProfileName = 'default' | 'alternate';

/** Settings whose default is a profile's choice (`FakePartnerEquityOptions` still override each one). */
export interface ProfileDefaults {
  skewSeconds: number;
  maxAssertionLifetimeSeconds: number;
  maxInvestorRows: number;
  maxSubscriptionRows: number;
  maxJsonBodyBytes: number;
}

/** A 401/403/404/409/… body before the profile presents it: the default partner envelope, or a 422. */
export interface ProblemWire {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The presentation layer: turns the fake's canonical wire JSON (the default profile's, built from its
 * records) into what this profile sends. The default profile's presenter is the identity.
 */
export interface ProfilePresenter {
  root(body: Record<string, unknown>): unknown;
  health(body: Record<string, unknown>): unknown;
  tokenInfo(body: Record<string, unknown>): unknown;
  contractVersions(body: { latest: string; versions: Array<{ version: string }> }): unknown;
  contractDocument(kind: ContractDocumentKind, doc: Record<string, unknown>): unknown;
  contractList(kind: ContractDocumentKind, version: string, docs: Array<Record<string, unknown>>): unknown;
  spvRequest(body: Record<string, unknown>): unknown;
  spvRequestListItem(body: Record<string, unknown>): unknown;
  /** A page of any list route (`documents` already presented, `count` the list's total). */
  listPage(page: { documents: unknown[]; count: number; skip: number; limit: number }): unknown;
  /** An ISO 8601 UTC timestamp (`2026-11-23T18:00:00.123Z`) as this profile writes timestamps. */
  timestamp(iso: string): unknown;
  investorResult(body: Record<string, unknown>): unknown;
  subscriptionResult(body: Record<string, unknown>): unknown;
  signedFormResult(body: Record<string, unknown>): unknown;
  fundingReceiptResult(body: Record<string, unknown>): unknown;
  /** An error response: the partner envelope's `code`s, `errorId` and headers as this profile sends them. */
  problem(problem: ProblemWire): ProblemWire;
  /** A request no route matches: `allowed` lists the methods the path has (empty: unknown path). */
  noRoute(method: string, path: string, allowed: string[]): RouteResult | undefined;
  /** The `X-Request-Id` of one response. */
  requestId(): string;
  /** The `errorId` of one error response. */
  errorId(): string;
}

/** How a profile accepts requests where the spec does not say. */
export interface ProfileAcceptance {
  /** JWS `alg` values an assertion may carry. */
  assertionAlgorithms: readonly string[];
  /** Whether an `aud` given as a one-element array counts as that string. */
  audienceArray: boolean;
  /** `POST /v1/spv-requests` body as the server checks it (before the template check). */
  spvRequestCreate: z.ZodType<{
    templateId: string;
    templateVersion?: string | undefined;
    attributes: Record<string, unknown>;
  }>;
  /**
   * One investor row: the first problem as a canonical row error (default codes; the presenter renames
   * them), or the fields to store.
   */
  investorRow(row: Record<string, unknown>, today: string): InvestorRowCheck;
  /** Funding receipt files: the four form types (415 otherwise) or any non-empty file. */
  fundingReceiptTypes: 'form-types' | 'any';
}

/** What an investor row check found. */
export type InvestorRowCheck =
  | { ok: false; error: { code: string; message: string; retryable: boolean; field?: string } }
  | {
      ok: true;
      person: {
        email: string;
        firstName?: string;
        lastName?: string;
        dateOfBirth?: string;
        countryOfResidence?: string;
      };
    };

/** Which routes exist how. */
export interface ProfileRoutes {
  /** `/v1/contracts*`: open (the spec declares no security requirement) or behind a bearer token. */
  contractsAuth: 'none' | 'bearer';
  /** Uploads read an optional `Idempotency-Key` (the spec lists none for them), or ignore it. */
  uploadIdempotency: 'optional' | 'ignored';
  /** `GET /v1/spv-requests` order. */
  listOrder: 'newest-first' | 'oldest-first';
  /** The slug approval gives a share class (`taken` holds the SPV's slugs so far). */
  shareClassSlug(name: string, taken: Set<string>): string;
}

/**
 * The named wire schemas a profile documents in `/openapi.json` and validates with. `components` is every
 * schema registered under its name (the module namespace of `src/testing/wire` or `wire-alternate`).
 */
export interface ProfileSchemas {
  components: Record<string, unknown>;
  RootResponse: z.ZodType;
  HealthResponse: z.ZodType;
  OpenApiDocument: z.ZodType;
  TokenRequest: z.ZodType;
  TokenResponse: z.ZodType;
  TokenInfo: z.ZodType;
  ContractVersionList: z.ZodType;
  /** The profile's timestamp, for entries a route declares itself. */
  Timestamp: z.ZodType;
  contractDocuments: Record<ContractDocumentKind, { one: z.ZodType; list: z.ZodType }>;
  SpvRequest: z.ZodType;
  SpvRequestPage: z.ZodType;
  SpvRequestCreate: z.ZodType;
  SpvRequestListParams: z.ZodObject;
  InvestorCreateBody: z.ZodType;
  InvestorCreateResponse: z.ZodType;
  SubscriptionCreateBody: z.ZodType;
  SubscriptionCreateResponse: z.ZodType;
  SignedFormUploadResult: z.ZodType;
  FundingReceiptUploadResult: z.ZodType;
  FundingReceiptFields: z.ZodObject;
  PartnerErrorBody: z.ZodType;
  ValidationErrorBody: z.ZodType;
}

/** A profile's wire module (`src/testing/wire` or `wire-alternate`): the same names, each with its own shapes. */
export type WireModule = Omit<ProfileSchemas, 'components' | 'contractDocuments'> & {
  [Name in `Contract${'Template' | 'Catalog' | 'Primitive' | 'Sample'}${'' | 'List'}`]: z.ZodType;
};

/** The named schemas of one wire module, as a profile documents and validates with them. */
export function profileSchemas(wire: WireModule): ProfileSchemas {
  return {
    components: wire,
    RootResponse: wire.RootResponse,
    HealthResponse: wire.HealthResponse,
    OpenApiDocument: wire.OpenApiDocument,
    TokenRequest: wire.TokenRequest,
    TokenResponse: wire.TokenResponse,
    TokenInfo: wire.TokenInfo,
    ContractVersionList: wire.ContractVersionList,
    Timestamp: wire.Timestamp,
    contractDocuments: {
      templates: { one: wire.ContractTemplate, list: wire.ContractTemplateList },
      catalogs: { one: wire.ContractCatalog, list: wire.ContractCatalogList },
      primitives: { one: wire.ContractPrimitive, list: wire.ContractPrimitiveList },
      samples: { one: wire.ContractSample, list: wire.ContractSampleList },
    },
    SpvRequest: wire.SpvRequest,
    SpvRequestPage: wire.SpvRequestPage,
    SpvRequestCreate: wire.SpvRequestCreate,
    SpvRequestListParams: wire.SpvRequestListParams,
    InvestorCreateBody: wire.InvestorCreateBody,
    InvestorCreateResponse: wire.InvestorCreateResponse,
    SubscriptionCreateBody: wire.SubscriptionCreateBody,
    SubscriptionCreateResponse: wire.SubscriptionCreateResponse,
    SignedFormUploadResult: wire.SignedFormUploadResult,
    FundingReceiptUploadResult: wire.FundingReceiptUploadResult,
    FundingReceiptFields: wire.FundingReceiptFields,
    PartnerErrorBody: wire.PartnerErrorBody,
    ValidationErrorBody: wire.ValidationErrorBody,
  };
}

/** One server's answers to the spec's gaps, chosen once per fake. @internal */
export interface FakeProfile {
  readonly name: FakeProfileName;
  /** Webhook payloads: the fake's full resources, or minimal ones (ids and status). Wired by the sender. */
  readonly webhookPayloads: 'full' | 'minimal';
  /** Text for `/openapi.json`'s `info.description`. */
  readonly description: string;
  readonly defaults: ProfileDefaults;
  readonly routes: ProfileRoutes;
  readonly accept: ProfileAcceptance;
  readonly schemas: ProfileSchemas;
  readonly present: ProfilePresenter;
}
