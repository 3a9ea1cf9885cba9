// The zod schemas of the Partner Equity API's resources, shared by the SDK (input validation, response
// parsing) and the fake API (request validation, OpenAPI generation). One explicit list, no wildcard.
export {
  CatalogAttribute,
  CONTRACT_DOCUMENT_KINDS,
  ContractCatalog,
  ContractCatalogList,
  type ContractDocumentKind,
  ContractPrimitive,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractTemplate,
  ContractTemplateList,
  ContractVersion,
  ContractVersionList,
} from './contracts.js';
export {
  AttributeError,
  PARTNER_ERROR_CODES,
  PartnerErrorBody,
  PartnerErrorCode,
  ValidationErrorBody,
  ValidationIssue,
} from './errors.js';
export {
  FundingReceiptUploadedData,
  FundingReceiptUploadedEvent,
  KnownWebhookEvent,
  SignedFormUploadedData,
  SignedSubscriptionFormUploadedEvent,
  SpvRequestCompletedEvent,
  SpvRequestCreatedEvent,
  SubscriptionCompletedData,
  SubscriptionCompletedEvent,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from './events.js';
export {
  INVESTOR_ERROR_CODES,
  INVESTOR_RESULT_STATUSES,
  InvestorCreateBody,
  InvestorCreateResponse,
  InvestorInput,
  InvestorResult,
  InvestorRowError,
  MAX_INVESTOR_ROWS,
} from './investors.js';
export {
  JWT_BEARER_GRANT_TYPE,
  JwtBearerGrant,
  RefreshTokenGrant,
  TokenInfo,
  TokenRequest,
  TokenResponse,
} from './oauth.js';
export { openEnum } from './open-enum.js';
export {
  CalendarDate,
  CountryCode,
  CurrencyCode,
  DecimalString,
  PercentString,
  PositiveDecimalString,
  Slug,
  Timestamp,
} from './primitives.js';
export {
  FeesAndCarry,
  MaterialisedRefs,
  SetupFee,
  ShareClass,
  SPV_REQUEST_STATUSES,
  SpvRequest,
  SpvRequestCreate,
  SpvRequestListParams,
  SpvRequestPage,
  SpvRequestStatus,
} from './spv-requests.js';
export {
  LumpSum,
  LumpSumResult,
  MAX_SUBSCRIPTION_ROWS,
  SUBSCRIPTION_STATUSES,
  SubscriptionCreateBody,
  SubscriptionCreateResponse,
  SubscriptionInput,
  SubscriptionResult,
  SubscriptionStatus,
} from './subscriptions.js';
export { HealthResponse, OpenApiDocument, RootResponse } from './system.js';
export {
  FundingReceiptFields,
  FundingReceiptUploadResult,
  MAX_UPLOAD_BYTES,
  SignedFormUploadResult,
  UPLOAD_MEDIA_TYPES,
  type UploadMediaType,
} from './uploads.js';
