// Everything the doctor takes from src/core, in one place: when src/core moves its files, this is the one
// file of the doctor to update.
export type { Authenticator } from '../core/authenticator.js';
export type { ClientOptions } from '../core/client-options.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  InputValidationError,
  toValidationIssues,
} from '../core/errors.js';
export { isCleartextToNetwork } from '../core/loopback-host.js';
export type { Requester } from '../core/requester.js';
export type { ResponseValidationMode } from '../core/response-validation.js';
export { type RouteAuth, routeAuth } from '../core/routes.js';
export type { Transport } from '../core/transport.js';
