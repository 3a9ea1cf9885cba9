import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { FormData as UndiciFormData, fetch as undiciFetch } from 'undici';
import {
  type FakePartnerCredentials,
  FakePartnerEquity,
  type FakePartnerEquityOptions,
} from '../../src/testing/index.js';

export const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs an EdDSA assertion with node:crypto only (no SDK code), with optional claim/header overrides. */
export function signAssertion(
  partner: Pick<FakePartnerCredentials, 'baseUrl' | 'clientId' | 'issuer' | 'privateKey'>,
  nowMs: number,
  overrides: { claims?: Record<string, unknown>; header?: Record<string, unknown>; key?: string } = {},
): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'EdDSA', typ: 'JWT', ...overrides.header };
  const claims = {
    iss: partner.issuer,
    sub: partner.clientId,
    aud: partner.baseUrl,
    client_id: partner.clientId,
    iat,
    exp: iat + 60,
    jti: randomUUID(),
    ...overrides.claims,
  };
  const input = `${b64url(header)}.${b64url(claims)}`;
  const signature = sign(null, Buffer.from(input), createPrivateKey(overrides.key ?? partner.privateKey));
  return `${input}.${signature.toString('base64url')}`;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
}

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

// undici's own fetch only encodes its own FormData class (Node's global one comes from the bundled undici).
const viaUndici: FetchLike = (url, init) => {
  let body = init.body;
  if (body instanceof FormData) {
    const form = new UndiciFormData();
    for (const [name, value] of body) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, value.name);
    }
    body = form as unknown as BodyInit;
  }
  return undiciFetch(url, { ...init, body } as never) as unknown as Promise<Response>;
};

/** A raw HTTP helper over undici's own fetch (real sockets; MSW does not patch it). */
export function http(baseUrl: string, fetchImpl: FetchLike = viaUndici) {
  return async function call(
    method: string,
    path: string,
    options: {
      token?: string;
      json?: unknown;
      form?: Record<string, string>;
      body?: BodyInit;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    let body: BodyInit | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetchImpl(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
}

/** Exchanges a fresh assertion for tokens and returns the token response body. */
export async function login(fake: FakePartnerEquity, partner: FakePartnerCredentials, fetchImpl?: FetchLike) {
  const call = http(partner.baseUrl, fetchImpl);
  const reply = await call('POST', '/v1/oauth2/tokens', {
    form: { grant_type: JWT_GRANT, assertion: signAssertion(partner, fake.clock.now()) },
  });
  if (reply.status !== 201) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return reply.body as {
    accessToken: string;
    refreshToken: string;
    expiresIn: number;
    refreshExpiresIn: number;
  };
}

/** A listening fake with one provisioned partner logged in. */
export async function startFake(options: FakePartnerEquityOptions = {}) {
  const fake = new FakePartnerEquity(options);
  await fake.listen();
  const partner = await fake.createPartner();
  const { accessToken } = await login(fake, partner);
  return { fake, partner, token: accessToken, call: http(partner.baseUrl) };
}

/** Minimal valid files of each accepted type, and one that is none of them. */
export const files = {
  pdf: new Uint8Array(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')),
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]),
  webp: new Uint8Array(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1')),
  text: new Uint8Array(Buffer.from('just some text, not a document')),
};

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

/** A real webhook receiver on 127.0.0.1:0 answering `status(n)` to the n-th delivery (0-based). */
export async function startReceiver(
  status: (n: number, headers: Record<string, string>) => number = () => 204,
) {
  const { createServer } = await import('node:http');
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers[name] = value;
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status(received.length - 1, headers)).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `count` deliveries have arrived (for a fake in another process, which `idle()` cannot wait on). */
    until: (count: number) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Multipart body for an upload: `file` plus text fields. */
export function uploadForm(
  bytes: Uint8Array,
  filename: string,
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  return form;
}

/** A valid 2025-06 `spv-standard` create body. */
export function spvBody(overrides: Record<string, unknown> = {}) {
  return {
    templateId: 'spv-standard',
    attributes: {
      name: 'Acme Growth SPV I',
      currency: 'EUR',
      targetRaise: '2500000.00',
      shareClasses: [
        {
          name: 'Class A',
          managementFeePercent: '2',
          carryPercent: '20',
          setupFee: { amount: '500', currency: 'EUR' },
        },
        { name: 'Class B', managementFeePercent: '1.5', carryPercent: '15' },
      ],
      ...overrides,
    },
  };
}

/** A valid investor row. */
export function investor(partnerInvestorId: string, overrides: Record<string, unknown> = {}) {
  return {
    partnerInvestorId,
    email: `${partnerInvestorId}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1985-12-10',
    countryOfResidence: 'GB',
    ...overrides,
  };
}

let keyCounter = 0;
/** A fresh Idempotency-Key header. */
export const idem = (key = `key-${++keyCounter}-${randomUUID()}`) => ({ 'idempotency-key': key });

/**
 * Creates and approves an SPV request for the logged-in partner, then creates investors; returns the SPV
 * slug, its share class slugs and the person ids.
 */
export async function approvedSpv(
  fake: FakePartnerEquity,
  call: ReturnType<typeof http>,
  token: string,
  investorIds: string[] = ['inv-1'],
) {
  const created = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
  if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
  const approved = fake.admin.approveSpvRequest(created.body.spvRequestSlug);
  const spvSlug = approved.materialisedRefs!.vehicleSlug;
  const persons = await call('POST', '/v1/investors', {
    token,
    json: { investors: investorIds.map((id) => investor(id)) },
  });
  const personIds = (persons.body.results as Array<{ servicePersonId: string }>).map(
    (r) => r.servicePersonId,
  );
  const shareClasses = approved.feesAndCarry!.shareClasses.map((c) => c.slug);
  return { spvSlug, shareClasses, personIds, spvRequestSlug: created.body.spvRequestSlug as string };
}
