import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Secret } from './exposure.js';
import { jwtSignature } from './exposure.js';

/** What the client sent, for a rule to quote back. */
export interface QuotedRequest {
  path: string;
  form: URLSearchParams;
  bearer: string | undefined;
}

/** A careless server's answer: a status, headers and a body that may quote the request's secrets. */
export interface QuotedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * An HTTP proxy in front of the fake API that, for the next requests to a path armed with a rule, answers
 * itself the way a careless server or gateway would — quoting back the assertion, refresh token or bearer
 * token it was sent — and otherwise forwards the request unchanged. Every secret it sees is kept, so the
 * whole-suite scan knows what to look for.
 */
export interface QuotingProxy {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** The next `times` requests to `path` get `rule`'s answer instead of the fake's. */
  arm(path: string, rule: (request: QuotedRequest) => QuotedAnswer, times?: number): void;
  /** Assertions (by signature), refresh tokens and bearer tokens that went through. */
  secrets(): Secret[];
  close(): Promise<void>;
}

export async function startQuotingProxy(upstreamPort: number): Promise<QuotingProxy> {
  const rules: { path: string; rule: (request: QuotedRequest) => QuotedAnswer; left: number }[] = [];
  const seen: Secret[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const quoted = describe(req, body);
    remember(quoted, seen);
    const armed = rules.find((entry) => entry.path === quoted.path && entry.left > 0);
    if (armed !== undefined) {
      armed.left -= 1;
      const answer = armed.rule(quoted);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
      return;
    }
    const upstream = forward(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    arm: (path, rule, times = 1) => {
      rules.push({ path, rule, left: times });
    },
    secrets: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function describe(req: IncomingMessage, body: Buffer): QuotedRequest {
  const authorization = req.headers.authorization;
  return {
    path: new URL(req.url ?? '/', 'http://proxy').pathname,
    form: new URLSearchParams(body.toString('utf8')),
    bearer: authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined,
  };
}

function remember({ form, bearer }: QuotedRequest, seen: Secret[]): void {
  const assertion = form.get('assertion');
  const refresh = form.get('refresh_token');
  if (assertion !== null) seen.push({ kind: 'assertion', value: jwtSignature(assertion) });
  if (refresh !== null) seen.push({ kind: 'refresh token', value: refresh });
  if (bearer !== undefined) seen.push({ kind: 'access token', value: bearer });
}
