// The zod schemas of the Partner Equity API as the SDK reads and sends it. One rule, applied to every schema:
//
// - A response field is required only where the spec states it is always present (a field listed in a
//   resource table without a condition). Fields the spec marks conditional ("present when …"), objects that
//   exist only after some event (`materialisedRefs` before approval), and every field of a shape the spec
//   leaves open ("not shown": system bodies, token info, contract documents, list entries, `setupFee`) are
//   optional and accept `null`.
// - Unknown fields are kept (loose objects); enums the spec does not close are plain or open strings.
// - Timestamps are the server's strings (any ISO 8601 form), URLs are strings (relative ones included).
// - Inputs are checked for what the spec states (formats, the list bounds) and nothing more: no invented
//   lengths, limits or closed field lists, and no check that depends on the runtime's ICU data.
//
// The fake API's own concrete choices for what the spec leaves open live in `src/testing/wire/`, never here:
// the SDK must not require what only the fake knows. One explicit list of exports, no wildcard.
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
  ContractSamplePayload,
  ContractTemplate,
  ContractTemplateList,
  ContractVersion,
  ContractVersionList,
} from './contracts.js';
export {
  InvestorCreateResponse,
  InvestorInput,
  InvestorResult,
  InvestorRowError,
} from './investors.js';
export { TokenInfo, TokenResponse } from './oauth.js';
export { openEnum } from './open-enum.js';
export {
  allNullish,
  CalendarDate,
  CountryCode,
  CurrencyCode,
  DecimalString,
  JsonObject,
  nullish,
  Timestamp,
  UrlString,
} from './primitives.js';
export { IdempotencyKey, PathParam } from './request-params.js';
export {
  FeesAndCarry,
  MaterialisedRefs,
  SetupFee,
  ShareClass,
  SPV_REQUEST_STATUSES,
  SpvRequest,
  SpvRequestCreate,
  SpvRequestListItem,
  SpvRequestListParams,
  SpvRequestPage,
  SpvRequestStatus,
} from './spv-requests.js';
export {
  LumpSum,
  SubscriptionCreateResponse,
  SubscriptionInput,
  SubscriptionResult,
  type SubscriptionStatus,
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
