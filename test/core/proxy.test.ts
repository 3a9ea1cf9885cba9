import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { describeRoute } from '../../src/core/transport/proxy.js';
import { useFakeApi } from '../resources/fake-harness.js';

// Finding 12 of issue 46: a partner's server that reaches the internet through an egress proxy. The client
// runs in a child process with the proxy variables set, as a partner's service would; the proxy is a
// loopback CONNECT proxy that records each tunnel it opens.
const api = useFakeApi();
const run = promisify(execFile);
const child = fileURLToPath(new URL('./proxy-child.ts', import.meta.url));
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'];

let proxy: Server | undefined;
const sockets = new Set<Socket>();
async function closeProxy(): Promise<void> {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise((done) => proxy?.close(done) ?? done(undefined));
  proxy = undefined;
}
afterEach(closeProxy);

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// An https server on loopback whose certificate a private CA signed (a self-signed one, its own CA).
async function privateCaServer(): Promise<{ url: string; caFile: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pe-proxy-ca-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2'].concat([
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { stdio: 'ignore' },
  );
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caFile: cert,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// A loopback proxy: it forwards plain-http requests (absolute URIs, as clients send http through a proxy)
// and tunnels CONNECTs (https), and records each as `FORWARD host` or `CONNECT host`.
async function startProxy(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  proxy = createServer((req, res) => {
    const target = new URL(req.url ?? '');
    seen.push(`FORWARD ${target.host}`);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  proxy.on('connect', (req, client: Socket) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
    }
  });
  proxy.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((ready) => proxy!.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, seen };
}

// The parent's environment without its own proxy or PE_ variables.
function childEnv(variables: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of [...PROXY_VARIABLES, ...Object.keys(env).filter((n) => n.startsWith('PE_'))])
    delete env[name];
  return { ...env, ...variables };
}

async function listInChild(variables: Record<string, string>) {
  const { fake, credentials } = await api.start();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child, 'client'], {
    env: childEnv({
      ...variables,
      PE_BASE_URL: credentials.baseUrl,
      PE_CLIENT_ID: credentials.clientId,
      PE_ISSUER: credentials.issuer,
      PE_PRIVATE_KEY: credentials.privateKey,
    }),
  });
  const reached = fake.requests.map((request) => `${request.method} ${request.path}`);
  return { ...(JSON.parse(stdout) as { listed: number }), reached, host: new URL(credentials.baseUrl).host };
}

describe('proxies from the environment', () => {
  it('sends the token exchange and the API call through HTTP_PROXY (lower case too)', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      const { url, seen } = await startProxy();
      const { listed, reached, host } = await listInChild({ [name]: url });
      expect(listed).toBe(0);
      expect(new Set(reached)).toEqual(new Set(['POST /v1/oauth2/tokens', 'GET /v1/spv-requests']));
      // Each request the fake saw came through the proxy (a busy machine may time out and retry one).
      expect(seen).toEqual(reached.map(() => `FORWARD ${host}`));
      await closeProxy();
    }
  });

  it('goes direct to a host NO_PROXY names', async () => {
    const { url, seen } = await startProxy();
    const { reached } = await listInChild({ HTTP_PROXY: url, NO_PROXY: 'localhost,127.0.0.1' });
    expect(new Set(reached)).toEqual(new Set(['POST /v1/oauth2/tokens', 'GET /v1/spv-requests']));
    expect(seen).toEqual([]);
  });

  describe.skipIf(!hasOpenssl())(
    'an https service behind HTTPS_PROXY, its certificate from a private CA',
    () => {
      it('tunnels with CONNECT and trusts the CA NODE_EXTRA_CA_CERTS names', async () => {
        const tls = await privateCaServer();
        try {
          const { url, seen } = await startProxy();
          const variables = { HTTPS_PROXY: url, NODE_EXTRA_CA_CERTS: tls.caFile };
          const { stdout } = await run(
            process.execPath,
            ['--import', 'tsx', child, 'get', `${tls.url}/public/hc`],
            {
              env: childEnv(variables),
            },
          );
          expect(JSON.parse(stdout)).toEqual({ status: 200, body: '{"status":"ok"}' });
          expect(seen).toEqual([`CONNECT ${new URL(tls.url).host}`]);
          // Without the CA, the same request is refused: the certificate is what NODE_EXTRA_CA_CERTS made good.
          const untrusted = run(process.execPath, ['--import', 'tsx', child, 'get', `${tls.url}/public/hc`], {
            env: childEnv({ HTTPS_PROXY: url }),
          });
          await expect(untrusted).rejects.toThrow(/certificate/i);
        } finally {
          await tls.close();
        }
      });
    },
  );

  it('says how requests leave, for the doctor', () => {
    const api = new URL('https://api.example.com');
    expect(describeRoute(api, {}, {})).toBe('direct: no HTTPS_PROXY or HTTP_PROXY is set');
    expect(describeRoute(api, { HTTPS_PROXY: 'http://user:secret@proxy:3128/', NO_PROXY: '.corp' }, {})).toBe(
      'through the proxy http://***@proxy:3128 (HTTPS_PROXY), except hosts in NO_PROXY=.corp',
    );
    // HTTP_PROXY serves https URLs when HTTPS_PROXY is unset (as undici reads them); https_proxy wins over it.
    expect(describeRoute(api, { HTTP_PROXY: 'http://a:1', https_proxy: 'http://b:2' }, {})).toBe(
      'through the proxy http://b:2 (https_proxy)',
    );
    expect(describeRoute(new URL('http://127.0.0.1:4010'), { HTTPS_PROXY: 'http://b:2' }, {})).toBe(
      'direct: no HTTPS_PROXY or HTTP_PROXY is set',
    );
    expect(describeRoute(api, { HTTPS_PROXY: 'http://b:2' }, { dispatcher: {} })).toMatch(
      /^through the `dispatcher`/,
    );
  });
});
