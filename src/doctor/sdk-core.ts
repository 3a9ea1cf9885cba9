// Everything the doctor takes from src/core, in one place: when src/core moves its files, this is the one
// file of the doctor to update.

export { checkOptions } from '../core/check-options.js';
export type { ClientOptions } from '../core/client-options.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  InputValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  toValidationIssues,
} from '../core/errors/errors.js';
export type { Authenticator } from '../core/request/authenticator.js';
export type { Requester } from '../core/request/requester.js';
export type { ResponseValidationMode } from '../core/request/response-validation.js';
export { isCleartextToNetwork } from '../core/transport/loopback-host.js';
export { describeRoute, processEnv } from '../core/transport/proxy.js';
export { readText, type Transport } from '../core/transport/transport.js';
