import { PartnerEquityError } from './partner-equity-error.js';

/**
 * A call made after `client.close()` (on that client or on one it was derived from, or derived from it):
 * nothing was sent. Build a new client to send again.
 */
export class ClientClosedError extends PartnerEquityError {
  declare readonly code: 'client_closed';

  constructor(call?: { method: string; path: string }) {
    const where = call === undefined ? '' : `${call.method} ${call.path}: `;
    super(
      `${where}the client is closed (close() was called); build a new client to send requests`,
      'client_closed',
    );
  }
}
