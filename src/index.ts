/**
 * The Partner Equity API client: {@link PartnerEquity} and its resources, the error classes to branch on,
 * {@link generateKeyPair} and {@link deriveIdempotencyKey}.
 *
 * @module @partner-equity/sdk
 */
export {
  type Ed25519PublicJwk,
  type GeneratedKeyPair,
  generateKeyPair,
} from './auth/generate-key-pair.js';
export type { Ed25519PrivateJwk, PrivateKeyInput } from './auth/import-private-key.js';
export { MemoryTokenStore } from './auth/memory-token-store.js';
export {
  type AssertionAlgorithm,
  type AssertionClaims,
  type AssertionHeader,
  jwsSigningInput,
  type Signer,
} from './auth/signer.js';
export type {
  StoredRefreshToken,
  StoredTokenSet,
  TokenSet,
  TokenStore,
  TokenStoreLease,
} from './auth/token-store.js';
export { type ClientOverrides, PartnerEquity } from './client.js';
export type { BulkChunk, BulkChunkReport, BulkProgress } from './core/bulk/bulk-chunk.js';
export type { ClientOptions } from './core/client-options.js';
export type { Clock } from './core/clock.js';
export { ClientClosedError } from './core/errors/client-closed-error.js';
export {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorCode,
  InputValidationError,
  InternalServerError,
  NotFoundError,
  PartnerEquityError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  type RequestContext,
  ResponseTooLargeError,
  ResponseValidationError,
  type SdkErrorCode,
  type StatusErrorCode,
  UnprocessableEntityError,
  type UnprocessableEntityIssue,
  UnsupportedMediaTypeError,
  type ValidationErrorItem,
  type ValidationIssue,
} from './core/errors/errors.js';
export type { Logger, LogLevel } from './core/logging/logger.js';
export type { RateLimitStore, RateLimitUpdate, RateRule } from './core/rate-limit/rate-limit-store.js';
export { APIPromise, type RawResponse, type WithResponse } from './core/request/api-promise.js';
export { deriveIdempotencyKey } from './core/request/idempotency.js';
export { PagePromise } from './core/request/page-promise.js';
export type { IdempotentRequestOptions, RequestOptions } from './core/request/request-options.js';
export type { ResponseValidationMode, Unrecognized } from './core/request/response-validation.js';
export type { RetryConfig } from './core/request/retry-policy.js';
export type { UploadFile } from './core/uploads/file-source.js';
export type { DoctorWebhookOptions } from './doctor/check-webhook.js';
export type {
  DoctorCheck,
  DoctorFinding,
  DoctorGroup,
  DoctorImpact,
  DoctorReport,
  DoctorStatus,
} from './doctor/doctor-report.js';
export { type FormatDoctorReportOptions, formatDoctorReport } from './doctor/format-doctor-report.js';
export type { DoctorOptions } from './doctor/run-doctor.js';
export type { BulkCreateOptions, BulkResult, RowResult as BulkRowResult } from './resources/bulk-options.js';
export type { ContractDocuments } from './resources/contract-documents.js';
export type {
  ContractDocumentList,
  ContractVersionInfo,
  ContractVersions,
} from './resources/contract-lists.js';
export type { Contracts } from './resources/contracts.js';
export type { InvestorBulkResult, InvestorCreateOptions, Investors } from './resources/investors.js';
export type { OAuth, TokenInfo } from './resources/oauth.js';
export type { SpvRequests } from './resources/spv-requests.js';
export type {
  SubscriptionBulkResult,
  SubscriptionCreateOptions,
  Subscriptions,
} from './resources/subscriptions.js';
export type { System } from './resources/system.js';
export type {
  FundingReceiptUpload,
  SignedFormUpload,
  SignedFormUploadOptions,
} from './resources/upload-options.js';
export type {
  CatalogAttribute,
  ContractCatalog,
  ContractCatalogList,
  ContractPrimitive,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractSamplePayload,
  ContractTemplate,
  ContractTemplateList,
  ContractVersion,
  ContractVersionList,
} from './schemas/contracts.js';
export { CONTRACT_DOCUMENT_KINDS, type ContractDocumentKind } from './schemas/contracts.js';
export type {
  InvestorInput,
  InvestorResult,
  InvestorRowError,
  InvestorRowFailure,
  InvestorRowResult,
  InvestorRowSuccess,
} from './schemas/investors.js';
export type {
  FeesAndCarry,
  MaterialisedRefs,
  SetupFee,
  ShareClass,
  SpvRequest,
  SpvRequestCreate,
  SpvRequestListItem,
  SpvRequestListParams,
  SpvRequestPage,
  SpvRequestStatus,
} from './schemas/spv-requests.js';
export type {
  LumpSum,
  SubscriptionCreateResponse,
  SubscriptionInput,
  SubscriptionResult,
  SubscriptionRowError,
  SubscriptionRowFailure,
  SubscriptionRowResult,
  SubscriptionRowSuccess,
  SubscriptionStatus,
} from './schemas/subscriptions.js';
export type { HealthResponse, OpenApiDocument, RootResponse } from './schemas/system.js';
export {
  type FundingReceiptUploadResult,
  MAX_UPLOAD_BYTES,
  type SignedFormUploadResult,
  UPLOAD_MEDIA_TYPES,
  type UploadMediaType,
} from './schemas/uploads.js';
export type { TracerProviderLike } from './tracing/tracing.js';
export { VERSION } from './version.js';
