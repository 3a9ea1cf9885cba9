/**
 * The event type of `partner-equity doctor`'s test deliveries. A `WebhookReceiver` acknowledges a verified
 * probe (204) without running any handler or logging it as an unknown type: it is no event of the service.
 */
export const DOCTOR_PROBE_EVENT_TYPE = 'partner_equity.doctor_probe';
