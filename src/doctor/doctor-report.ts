/**
 * How one check came out:
 * - `ok` — works as the SDK expects;
 * - `differs` — works, but not the way the SDK expects it (worth reading before go-live);
 * - `fails` — a call would fail (or already did), with the fix;
 * - `skipped` — not run (no credentials, no webhook URL, or an earlier check failed).
 */
export type DoctorStatus = 'ok' | 'differs' | 'fails' | 'skipped';

/** A group of checks: `connection`, `authentication`, `contracts`, `openapi` or `webhooks`. */
export type DoctorGroup = 'connection' | 'authentication' | 'contracts' | 'openapi' | 'webhooks';

/** The check groups, in the order they run and print. */
export const DOCTOR_GROUPS = [
  'connection',
  'authentication',
  'contracts',
  'openapi',
  'webhooks',
] as const satisfies readonly DoctorGroup[];

/**
 * What one difference between the service's `/openapi.json` and the SDK means for a call:
 * - `fails` — the call would fail: a missing operation or a required header the SDK does not send, or a
 *   response that breaks the SDK's schema under `responseValidation: 'strict'`;
 * - `tolerated` — the response breaks the SDK's schema, and the client's `responseValidation` (`'warn'` or
 *   `'off'`) returns it as sent: code that reads the field may trip;
 * - `info` — the SDK copes; worth knowing (a `null` where a value is absent, a value the SDK does not
 *   name, a field the SDK names that this service does not send…).
 */
export type DoctorImpact = 'fails' | 'tolerated' | 'info';

/** One difference between the service's `/openapi.json` and what the SDK reads and sends. */
export interface DoctorFinding {
  impact: DoctorImpact;
  /** What kind of difference (`missing-operation`, `nullable`, `enum-value`, `extra-field`…). */
  kind: string;
  /** The operation, as `METHOD /route` of the SDK (`GET /v1/spv-requests/{slug}`). */
  operation: string;
  /** The SDK method that calls it (`client.spvRequests.get()`). */
  sdk: string;
  /** Where in the operation: `response 200`, `request body`, `header Idempotency-Key`, `query perPage`… */
  where: string;
  /** The field's path in the body (`documents[].templateVersion`), empty for the body or the operation. */
  path: string;
  /** One sentence: what differs and what it does to the call. */
  message: string;
}

/** The outcome of one check. */
export interface DoctorCheck {
  /** Stable id (`reachability`, `server-clock`, `token-exchange`, `openapi`…). */
  id: string;
  group: DoctorGroup;
  /** Short title shown in the report. */
  title: string;
  status: DoctorStatus;
  /** One line: what was found. */
  explanation: string;
  /** One line: what to do about it (absent when there is nothing to do). */
  fix?: string | undefined;
  /** Further lines: the server's words (redacted), the assertion's claims, the probes and their answers. */
  details?: string[] | undefined;
  /** For the OpenAPI comparison: every difference, each with its impact. */
  findings?: DoctorFinding[] | undefined;
}

/** What `client.doctor()` and `partner-equity doctor` found. */
export interface DoctorReport {
  /** `true` when no check fails (the CLI then exits 0). */
  ok: boolean;
  /** The worst status of any check (`skipped` counts as `ok`). */
  status: Exclude<DoctorStatus, 'skipped'>;
  baseUrl: string;
  /** The client's mode, which decides whether a response that breaks the SDK's schema fails a call. */
  responseValidation: 'strict' | 'warn' | 'off';
  /** When the run started (ISO 8601, the client's clock). */
  startedAt: string;
  checks: DoctorCheck[];
}

const rank: Record<DoctorStatus, number> = { skipped: 0, ok: 0, differs: 1, fails: 2 };

/** The worst of `statuses`; `ok` for none. */
export function worstStatus(statuses: Iterable<DoctorStatus>): Exclude<DoctorStatus, 'skipped'> {
  let worst: Exclude<DoctorStatus, 'skipped'> = 'ok';
  for (const status of statuses) {
    if (status !== 'skipped' && rank[status] > rank[worst]) worst = status;
  }
  return worst;
}

/** A check's status from its findings: `fails` if one would fail, `differs` if any, else `ok`. */
export function statusOfFindings(findings: readonly DoctorFinding[]): Exclude<DoctorStatus, 'skipped'> {
  if (findings.some((finding) => finding.impact === 'fails')) return 'fails';
  return findings.length > 0 ? 'differs' : 'ok';
}
