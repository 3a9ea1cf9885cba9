// How every example gets a client: against a real environment when the PE_* variables are set, otherwise
// against the SDK's fake API started in this process. Your own code needs only the first half.
import { readFile } from 'node:fs/promises';
import { type ClientOptions, PartnerEquity } from '@partner-equity/sdk';
import { FakePartnerEquity, type FakePartnerEquityOptions } from '@partner-equity/sdk/testing';

/** A client, and the fake behind it when there is one (its admin plays the service's reviewers). */
export interface Connection {
  client: PartnerEquity;
  fake: FakePartnerEquity | undefined;
  /** Where the client points, for printing. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Client credentials from PE_BASE_URL, PE_CLIENT_ID, PE_ISSUER and PE_PRIVATE_KEY_FILE, if all are set. */
export async function credentialsFromEnv(): Promise<ClientOptions | undefined> {
  const { PE_BASE_URL, PE_CLIENT_ID, PE_ISSUER, PE_PRIVATE_KEY_FILE, PE_KEY_ID } = process.env;
  if (!PE_BASE_URL) return undefined;
  if (!PE_CLIENT_ID || !PE_ISSUER || !PE_PRIVATE_KEY_FILE) {
    throw new Error(
      'Set PE_BASE_URL, PE_CLIENT_ID, PE_ISSUER and PE_PRIVATE_KEY_FILE together (or none of them).',
    );
  }
  return {
    baseUrl: PE_BASE_URL,
    clientId: PE_CLIENT_ID,
    issuer: PE_ISSUER,
    privateKey: await readFile(PE_PRIVATE_KEY_FILE, 'utf8'),
    ...(PE_KEY_ID ? { keyId: PE_KEY_ID } : {}),
  };
}

/** Connects to the environment named by PE_* variables, or to a fresh in-process fake (with `fakeOptions`). */
export async function connect(
  options: Partial<ClientOptions> = {},
  fakeOptions: FakePartnerEquityOptions = {},
): Promise<Connection> {
  const fromEnv = await credentialsFromEnv();
  if (fromEnv !== undefined) {
    const client = new PartnerEquity({ ...fromEnv, ...options });
    return { client, fake: undefined, baseUrl: fromEnv.baseUrl, close: () => client.close() };
  }
  const fake = new FakePartnerEquity(fakeOptions);
  const stopClock = followWallClock(fake);
  await fake.listen();
  const partner = await fake.createPartner();
  const client = new PartnerEquity({ ...partner, ...options });
  return {
    client,
    fake,
    baseUrl: partner.baseUrl,
    async close() {
      stopClock();
      await client.close();
      await fake.close();
    },
  };
}

/**
 * The fake's clock is manual (tests move it). For a demo it should follow the wall clock, so webhook
 * retries and token lifetimes run in real time.
 */
export function followWallClock(fake: FakePartnerEquity): () => void {
  let moving = false;
  const timer = setInterval(() => {
    const behind = Date.now() - fake.clock.now();
    if (moving || behind <= 0) return;
    moving = true;
    fake.clock.advance(behind).finally(() => {
      moving = false;
    });
  }, 200);
  timer.unref();
  return () => clearInterval(timer);
}
