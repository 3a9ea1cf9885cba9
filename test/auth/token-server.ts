import { type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/core/clock.js';

/**
 * A loopback token server for the auth tests: a real `node:http` server on port 0 that checks assertions the
 * way the spec says the API does, using `node:crypto` directly (never SDK code), rotates refresh tokens with
 * reuse detection, and misbehaves on demand. It records everything a test may want to assert on.
 */
export interface TokenServerOptions {
  /** The clock the SDK also uses; the server's own time is `clock.now() + aheadMs`. */
  clock: Clock;
  clientId: string;
  issuer: string;
  publicKey: KeyObject;
  /** @default 3600 */
  expiresIn?: number;
  /** `alg` values accepted in assertion headers. @default ['EdDSA'] */
  algorithms?: string[];
}

/** Misbehaviour for the next matching token request. */
export type TokenFault =
  /** Answer this status without processing the request. */
  | { status: number; retryAfter?: string }
  /** Process the request (tokens issued, refresh token used up), then cut the connection: the answer is lost. */
  | { drop: true }
  /** Answer normally, but only once `until` settles (a slow server). */
  | { until: Promise<void> };

export interface TokenRequestRecord {
  grant: 'jwt' | 'refresh';
  /** The status sent, or `dropped`. */
  outcome: number | 'dropped';
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  refreshToken?: string;
  /** Why the server refused, when it did. */
  rejection?: string;
  /** Server time (ms) when it arrived. */
  serverTime: number;
}

interface Chain {
  revoked: boolean;
}

const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const SKEW_SECONDS = 5;

export class TokenServer {
  readonly #server: Server;
  readonly #options: TokenServerOptions;
  baseUrl = '';
  /** How far the server's clock runs ahead of the shared clock, in ms. */
  aheadMs = 0;
  readonly tokenRequests: TokenRequestRecord[] = [];
  /** How many times each refresh token was presented. */
  readonly refreshPresentations = new Map<string, number>();
  /** Bearer-route calls: the token presented and the status answered. */
  readonly apiCalls: { token: string | undefined; status: number }[] = [];
  /** Every assertion received and every token issued: none may ever show in logs, errors or inspection. */
  readonly secrets: string[] = [];
  /** The refresh token of the latest pair issued (an attacker's view of it, for reuse tests). */
  lastRefreshToken: string | undefined;
  /** Requests no route handles; a test fails when any arrive. */
  readonly unexpected: string[] = [];
  readonly #faults: { grant: 'jwt' | 'refresh' | 'any'; fault: TokenFault }[] = [];
  /** Statuses forced on the next bearer-route calls, whatever their token. */
  readonly apiFaults: number[] = [];
  readonly #jtis = new Set<string>();
  readonly #refreshTokens = new Map<string, { chain: Chain; used: boolean }>();
  readonly #accessTokens = new Map<string, { chain: Chain; expiresAt: number }>();

  private constructor(options: TokenServerOptions) {
    this.#options = options;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        this.unexpected.push(`handler error: ${String(error)}`);
        res.destroy();
      });
    });
  }

  static async start(options: TokenServerOptions): Promise<TokenServer> {
    const server = new TokenServer(options);
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.baseUrl = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}`;
    return server;
  }

  /** Queues a fault for the next token request of `grant` (any grant by default). */
  injectTokenFault(fault: TokenFault, grant: 'jwt' | 'refresh' | 'any' = 'any'): void {
    this.#faults.push({ grant, fault });
  }

  /** Invalidates one access token (as a server-side revocation would); its refresh chain lives on. */
  revokeAccessToken(token: string): void {
    this.#accessTokens.delete(token);
  }

  /** The server's time in ms. */
  now(): number {
    return this.#options.clock.now() + this.aheadMs;
  }

  /** Token requests answered 201 (a `dropped` one was processed too but its answer never arrived). */
  issued(): TokenRequestRecord[] {
    return this.tokenRequests.filter((r) => r.outcome === 201 || r.outcome === 'dropped');
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/oauth2/tokens') return await this.#token(req, body, res);
    if (req.method === 'GET' && path === '/v1/oauth2/info') return this.#info(req, res);
    this.unexpected.push(`${req.method} ${req.url}`);
    this.#send(res, 404, { code: 'not_found', detail: 'no such route in the token server' });
  }

  async #token(req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
      this.unexpected.push(`token request with content-type ${req.headers['content-type']}`);
      this.#send(res, 415, { code: 'unsupported_media_type', detail: 'form expected' });
      return;
    }
    const form = new URLSearchParams(body);
    const grant = form.get('grant_type') === JWT_GRANT ? 'jwt' : 'refresh';
    const record: TokenRequestRecord = { grant, outcome: 0, serverTime: this.now() };
    if (grant === 'jwt') this.secrets.push(form.get('assertion') ?? '');
    this.tokenRequests.push(record);
    const faultIndex = this.#faults.findIndex((f) => f.grant === 'any' || f.grant === grant);
    const fault = faultIndex === -1 ? undefined : this.#faults.splice(faultIndex, 1)[0]?.fault;
    if (fault !== undefined && 'status' in fault) {
      record.outcome = fault.status;
      const headers = fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
      this.#send(res, fault.status, { code: 'injected', detail: `injected ${fault.status}` }, headers);
      return;
    }
    if (fault !== undefined && 'until' in fault) await fault.until;
    const answer = grant === 'jwt' ? this.#jwtGrant(form, record) : this.#refreshGrant(form, record);
    if (fault !== undefined && 'drop' in fault) {
      record.outcome = 'dropped';
      res.socket?.destroy();
      return;
    }
    record.outcome = answer.status;
    this.#send(res, answer.status, answer.body);
  }

  #jwtGrant(form: URLSearchParams, record: TokenRequestRecord): { status: number; body: unknown } {
    const refuse = (why: string) => {
      record.rejection = why;
      return { status: 401, body: { code: 'invalid_assertion', detail: why } };
    };
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return refuse('not a compact JWS');
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = decodeJson(headerPart);
    const claims = decodeJson(payloadPart);
    if (header === undefined || claims === undefined) return refuse('header or payload is not JSON');
    record.header = header;
    record.claims = claims;
    if (!(this.#options.algorithms ?? ['EdDSA']).includes(String(header['alg'])))
      return refuse('alg not accepted');
    if (header['typ'] !== 'JWT') return refuse('typ must be JWT');
    const signed = Buffer.from(`${headerPart}.${payloadPart}`);
    const signature = Buffer.from(signaturePart, 'base64url');
    if (!verify(null, signed, this.#options.publicKey, signature)) return refuse('bad signature');
    const nowSeconds = Math.floor(this.now() / 1000);
    const { iss, sub, aud, client_id, iat, exp, jti } = claims;
    if (iss !== this.#options.issuer) return refuse('iss is not the registered issuer');
    if (sub !== this.#options.clientId) return refuse('sub is not the client id');
    if (client_id !== sub) return refuse('client_id differs from sub');
    if (aud !== this.baseUrl) return refuse('aud is not this environment');
    if (!Number.isInteger(iat) || Math.abs((iat as number) - nowSeconds) > SKEW_SECONDS)
      return refuse('iat skew');
    if (!Number.isInteger(exp) || exp !== (iat as number) + 60) return refuse('exp is not iat + 60');
    if (typeof jti !== 'string' || jti.length < 16) return refuse('jti missing');
    if (this.#jtis.has(jti)) return refuse('jti replayed');
    this.#jtis.add(jti);
    return { status: 201, body: this.#issue({ revoked: false }) };
  }

  #refreshGrant(form: URLSearchParams, record: TokenRequestRecord): { status: number; body: unknown } {
    const presented = form.get('refresh_token') ?? '';
    record.refreshToken = presented;
    this.refreshPresentations.set(presented, (this.refreshPresentations.get(presented) ?? 0) + 1);
    const known = this.#refreshTokens.get(presented);
    const refuse = (why: string) => {
      record.rejection = why;
      return { status: 401, body: { code: 'invalid_grant', detail: why } };
    };
    if (known === undefined) return refuse('unknown refresh token');
    if (known.used) {
      known.chain.revoked = true; // reuse: the whole chain dies, as the spec says
      return refuse('refresh token reused; chain revoked');
    }
    if (known.chain.revoked) return refuse('chain revoked');
    known.used = true;
    return { status: 201, body: this.#issue(known.chain) };
  }

  #issue(chain: Chain): Record<string, unknown> {
    const expiresIn = this.#options.expiresIn ?? 3600;
    const accessToken = `at_${randomBytes(18).toString('base64url')}`;
    const refreshToken = `rt_${randomBytes(18).toString('base64url')}`;
    this.#accessTokens.set(accessToken, { chain, expiresAt: this.now() + expiresIn * 1000 });
    this.#refreshTokens.set(refreshToken, { chain, used: false });
    this.secrets.push(accessToken, refreshToken);
    this.lastRefreshToken = refreshToken;
    return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn, refreshExpiresIn: 2_592_000 };
  }

  #info(req: IncomingMessage, res: ServerResponse): void {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const forced = this.apiFaults.shift();
    const held = token === undefined ? undefined : this.#accessTokens.get(token);
    const valid = held !== undefined && !held.chain.revoked && this.now() < held.expiresAt;
    const status = forced ?? (valid ? 200 : 401);
    this.apiCalls.push({ token, status });
    const expiresAt = held?.expiresAt ?? this.now();
    const body =
      status === 200
        ? {
            clientId: this.#options.clientId,
            clientType: 'partner',
            applicationName: 'Tests',
            issuedAt: new Date(expiresAt - (this.#options.expiresIn ?? 3600) * 1000).toISOString(),
            expiresAt: new Date(expiresAt).toISOString(),
          }
        : { code: 'invalid_token', detail: `status ${status}` };
    this.#send(res, status, body);
  }

  #send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      date: new Date(this.now()).toUTCString(),
      ...headers,
    });
    res.end(text);
  }
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
