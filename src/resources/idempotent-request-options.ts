export type { IdempotentRequestOptions } from '../core/request/request-options.js';
