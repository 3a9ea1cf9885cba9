import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import type { DoctorCheck, DoctorFinding, DoctorReport } from '../../src/doctor/doctor-report.js';
import {
  type FakePartnerCredentials,
  FakePartnerEquity,
  type FakePartnerEquityOptions,
  type FakeProfileName,
  ManualClock,
} from '../../src/testing/index.js';

/** The instant the fakes' clocks start at (…T18:00:00.123Z). */
export const START = Date.UTC(2026, 10, 23, 18, 0, 0, 123);

/** A fake of one profile on a loopback port, a registered partner, and clients built against it. */
export interface DoctorEnv {
  fake: FakePartnerEquity;
  partner: FakePartnerCredentials;
  /** A client of the partner on the fake's clock; `overrides` replace any option. */
  client(overrides?: Partial<ClientOptions>): PartnerEquity;
  close(): Promise<void>;
}

/** Starts a fake of `profile` on a manual clock, with one registered partner. */
export async function startDoctorEnv(
  profile: FakeProfileName,
  options: FakePartnerEquityOptions = {},
): Promise<DoctorEnv> {
  const fake = new FakePartnerEquity({ profile, clock: new ManualClock(START), ...options });
  await fake.listen();
  const partner = await fake.createPartner();
  const clients: PartnerEquity[] = [];
  return {
    fake,
    partner,
    client(overrides = {}) {
      const client = new PartnerEquity({
        baseUrl: partner.baseUrl,
        clientId: partner.clientId,
        issuer: partner.issuer,
        privateKey: partner.privateKey,
        clock: fake.clock,
        logLevel: 'off',
        responseValidation: 'warn',
        ...overrides,
      } as ClientOptions);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await fake.close();
    },
  };
}

/** One check of a report, by id (fails the test when absent). */
export function checkOf(report: DoctorReport, id: string): DoctorCheck {
  const found = report.checks.find((check) => check.id === id);
  if (found === undefined)
    throw new Error(`no check "${id}" in ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

/** `status id` of every check, in order. */
export const statuses = (report: DoctorReport) => report.checks.map((check) => `${check.status} ${check.id}`);

/** A finding as one comparable line: `impact kind METHOD /route | where | path`. */
export const line = (finding: DoctorFinding) =>
  `${finding.impact} ${finding.kind} ${finding.operation} | ${finding.where} | ${finding.path}`;

/** Every request the fake answered, as `METHOD /path`, for "nothing was written" assertions. */
export const methodsAndPaths = (fake: FakePartnerEquity) => fake.requests.map((r) => `${r.method} ${r.path}`);
