// The fake API's wire schemas: exactly what the fake sends and accepts in its default profile, including its
// concrete choices where the spec says "not shown" (field names of token info and system bodies, contract
// document shapes, investor statuses and error codes, 500-row limits, `setupFee` fields…). They drive the
// fake's request validation and its `/openapi.json`. The SDK never imports them: its own schemas in
// `src/schemas/` require only what the spec states.
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
