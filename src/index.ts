export {
  type Ed25519PublicJwk,
  type GeneratedKeyPair,
  generateKeyPair,
} from './auth/generate-key-pair.js';
export type { Ed25519PrivateJwk, PrivateKeyInput } from './auth/import-private-key.js';
export {
  type AssertionAlgorithm,
  type AssertionClaims,
  type AssertionHeader,
  jwsSigningInput,
  type Signer,
} from './auth/signer.js';
export { type ClientOverrides, PartnerEquity } from './client.js';
export { APIPromise, type RawResponse, type WithResponse } from './core/api-promise.js';
export type { ClientOptions } from './core/client-options.js';
export type { Clock } from './core/clock.js';
export {
  APIConnectionError,
  APIError,
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
  ResponseTooLargeError,
  ResponseValidationError,
  type SdkErrorCode,
  type StatusErrorCode,
  UnprocessableEntityError,
  type UnprocessableEntityIssue,
  UnsupportedMediaTypeError,
  type ValidationErrorItem,
  type ValidationIssue,
} from './core/errors.js';
export { deriveIdempotencyKey } from './core/idempotency.js';
export type { Logger, LogLevel } from './core/logger.js';
export { PagePromise } from './core/page-promise.js';
export type { RequestOptions } from './core/request-options.js';
export type { RetryConfig } from './core/retry-policy.js';
export type { TokenInfo } from './resources/oauth.js';
export { VERSION } from './version.js';
