import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { followWallClock } from '../../src/cli/follow-wall-clock.js';
import { PartnerEquity } from '../../src/index.js';
import { FakePartnerEquity, type FakePartnerEquityOptions } from '../../src/testing/index.js';
import { approveSpv, spvBody } from '../helpers/spv-body.js';

/**
 * Timeout of a test that runs the import command (a child process, served by the fake in this one): a hang
 * detector. The longest took 16 s on an idle 2-core machine and 95 s at load average 20.
 */
export const IMPORT_TIMEOUT_MS = 300_000;

/** The fake in this process, its loopback server, and a temporary folder; the CLI runs as a child. */
export interface ImportFake {
  fake: FakePartnerEquity;
  dir: string;
  close(): Promise<void>;
}

/** A partner of the fake: the CLI's environment, and an SDK client for setting the scene. */
export interface ImportPartner {
  clientId: string;
  env: Record<string, string>;
  client: PartnerEquity;
}

export async function startImportFake(options?: FakePartnerEquityOptions): Promise<ImportFake> {
  const fake = new FakePartnerEquity(options);
  // As `partner-equity mock` runs it: the fake's clock follows the wall clock the command reads.
  await fake.clock.advance(Date.now() - fake.clock.now());
  const stopClock = followWallClock(fake.clock);
  await fake.listen();
  const dir = await mkdtemp(join(tmpdir(), 'pe-import-'));
  return {
    fake,
    dir,
    close: async () => {
      stopClock();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A new partner (so each test sees only its own investors and subscriptions). */
export async function newPartner({ fake, dir }: ImportFake): Promise<ImportPartner> {
  const partner = await fake.createPartner();
  const keyFile = join(dir, `${partner.clientId}.pem`);
  await writeFile(keyFile, partner.privateKey, { mode: 0o600 });
  return {
    clientId: partner.clientId,
    env: {
      PARTNER_EQUITY_RESPONSE_VALIDATION: '',
      PE_BASE_URL: partner.baseUrl,
      PE_CLIENT_ID: partner.clientId,
      PE_ISSUER: partner.issuer,
      PE_PRIVATE_KEY_FILE: keyFile,
    },
    client: new PartnerEquity({ ...partner }),
  };
}

/** An approved SPV of the partner: its slug, first share class and currency. */
export async function approvedSpv(fake: FakePartnerEquity, partner: ImportPartner) {
  const request = await partner.client.spvRequests.create(await spvBody(partner.client));
  return approveSpv(fake, request.spvRequestSlug);
}

/** One valid investors CSV line (comma-separated) for row `i`. */
export function investorLine(i: number, prefix = 'inv'): string {
  return `${prefix}-${i},investor${i}@example.com,Ada,Investor ${i},1985-02-28,DE`;
}

export const INVESTOR_HEADER = 'partnerInvestorId,email,firstName,lastName,dateOfBirth,countryOfResidence';

/** A results (or any) CSV file as objects keyed by its header, read with the delimiter its header uses. */
export async function readCsvFile(path: string): Promise<Record<string, string>[]> {
  const text = await readFile(path, 'utf8');
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = [';', '\t'].find((char) => header.split(char).length > header.split(',').length) ?? ',';
  return parse(text, { columns: true, bom: true, delimiter }) as Record<string, string>[];
}

/** The fake's requests to a path since `from` (an index into `fake.requests`). */
export function requestsTo(fake: FakePartnerEquity, path: RegExp, from = 0) {
  return fake.requests.slice(from).filter((request) => path.test(request.path));
}
