import type { Requester } from '../core/request/requester.js';
import { OPERATIONS } from '../resources/operations.js';
import { parseHttpDate, type TokenEndpoint } from './token-endpoint.js';

/**
 * The token endpoint as the client reaches it: through the same request pipeline as every other call
 * (transport, timeout, logging with redaction, error mapping), as a single attempt. The token manager owns
 * the retries, because a JWT grant must be re-signed for each attempt and a refresh grant must never repeat.
 */
export function requesterTokenEndpoint(requester: Requester): TokenEndpoint {
  const operation = OPERATIONS['oauth.token'];
  return async (form, signal, sent = 0) => {
    const { data, response } = await requester
      .request({
        method: operation.method,
        path: operation.route,
        route: operation.route,
        operation: operation.span,
        form,
        response: operation.response,
        auth: 'none',
        // Checked 'strict' whatever the client's responseValidation: nothing works without tokens.
        validation: 'strict',
        // The exchange's earlier requests count in this one's `attempts` and debug lines.
        attemptsBefore: sent,
        options: { maxRetries: 0, ...(signal && { signal }) },
      })
      .withResponse();
    return { token: data, serverDate: parseHttpDate(response.headers.get('date')) };
  };
}
