import type { WebhookEventType } from '../../schemas/events.js';

/** An event the fake emitted, whether or not any endpoint was registered to receive it. */
export interface EmittedEvent {
  /** The `webhook-id` every delivery of this event carries (the same on every retry and endpoint). */
  id: string;
  type: WebhookEventType;
  /** Owning client. */
  clientId: string;
  /** Envelope `timestamp`: when the event happened (server time, ISO 8601). */
  timestamp: string;
  data: object;
  /** The exact JSON body sent: `{ type, timestamp, data }`. */
  body: string;
}

/** A registered webhook endpoint. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  /** The signing secret, in the scheme's encoding (`whsec_…` by default). */
  secret: string;
  /** When set, only this client's events go to the endpoint; otherwise every client's do. */
  clientId?: string;
}

/** One delivery attempt. */
export interface DeliveryAttempt {
  /** 1-based. */
  attempt: number;
  /** Server time (the fake's clock plus any offset, epoch ms) of the attempt. */
  at: number;
  /**
   * Server time (epoch ms) the sent signature was made at; its timestamp header is this in seconds. Equal to
   * `at` when each attempt is re-signed, the first attempt's `at` under `retrySigning: 'original'`.
   */
  signedAt?: number;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why it failed without a status (connection refused, timeout…). */
  error?: string;
}

/** One event on its way to one endpoint. */
export interface WebhookDelivery {
  eventId: string;
  eventType: WebhookEventType;
  endpointId: string;
  url: string;
  attempts: DeliveryAttempt[];
  state: 'pending' | 'delivered' | 'dead-lettered';
  /** Server time of the next scheduled retry while pending. */
  nextAttemptAt?: number;
}
