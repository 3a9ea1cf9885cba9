// The alternate profile's wire schemas: exactly what the fake sends and accepts with `profile: 'alternate'`,
// a second plausible server for every "not shown" of the spec. They drive that profile's request
// validation and its `/openapi.json`; what the two profiles share is re-exported from `../wire`.

export { ValidationErrorBody, ValidationIssue } from '../wire/errors.js';
export {
  JWT_BEARER_GRANT_TYPE,
  JwtBearerGrant,
  RefreshTokenGrant,
  TokenRequest,
  TokenResponse,
} from '../wire/oauth.js';
export { SpvRequestListParams, SpvRequestStatus } from '../wire/spv-requests.js';
export { LumpSum, SubscriptionInput } from '../wire/subscriptions.js';
export { OpenApiDocument } from '../wire/system.js';
export { FundingReceiptFields } from '../wire/uploads.js';
export {
  CatalogAttribute,
  ContractCatalog,
  ContractCatalogList,
  ContractPrimitive,
  ContractPrimitiveList,
  ContractSample,
  ContractSampleList,
  ContractTemplate,
  ContractTemplateList,
  ContractVersionList,
} from './contracts.js';
export {
  ALTERNATE_ATTRIBUTE_CODES,
  ALTERNATE_ERROR_CODES,
  AttributeError,
  PartnerErrorBody,
  RouteErrorBody,
} from './errors.js';
export {
  ALTERNATE_INVESTOR_ERROR_CODES,
  ALTERNATE_INVESTOR_STATUSES,
  INVESTOR_ERROR_CODES,
  INVESTOR_RESULT_STATUSES,
  InvestorCreateBody,
  InvestorCreateResponse,
  InvestorInput,
  InvestorResult,
  InvestorRowError,
  MAX_INVESTOR_ROWS,
} from './investors.js';
export { TokenInfo } from './oauth.js';
export { Timestamp } from './primitives.js';
export {
  FeesAndCarry,
  MaterialisedRefs,
  SetupFee,
  ShareClass,
  SpvRequest,
  SpvRequestCreate,
  SpvRequestPage,
  SpvRequestSummary,
} from './spv-requests.js';
export {
  ALTERNATE_SUBSCRIPTION_STATUSES,
  LumpSumResult,
  MAX_SUBSCRIPTION_ROWS,
  SUBSCRIPTION_STATUSES,
  SubscriptionCreateBody,
  SubscriptionCreateResponse,
  SubscriptionResult,
} from './subscriptions.js';
export { HealthResponse, RootResponse } from './system.js';
export { FundingReceiptUploadResult, RelativeUrl, SignedFormUploadResult } from './uploads.js';
