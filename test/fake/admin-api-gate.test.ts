import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { FakePartnerEquity, type FakePartnerEquityOptions } from '../../src/testing/index.js';
import { idem, spvBody, startFake } from './helpers.js';

/** A fake with the admin API on, a partner's pending SPV request, and a raw admin caller (any headers). */
async function startAdmin(adminApi: FakePartnerEquityOptions['adminApi'] = true) {
  const { fake, token, call, partner } = await startFake({ adminApi });
  const created = await call('POST', '/v1/spv-requests', { token, headers: idem(), json: spvBody() });
  const slug: string = created.body.spvRequestSlug;
  const port = new URL(partner.baseUrl).port;
  const admin = async (
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) => {
    const answer = await request(`${partner.baseUrl}/__admin${path}`, {
      method,
      headers,
      body: body ?? null,
    });
    const text = await answer.body.text();
    return { status: answer.statusCode, headers: answer.headers, body: JSON.parse(text) };
  };
  const status = () => fake.admin.snapshot().spvRequests.find((r) => r.spvRequestSlug === slug)?.status;
  return { fake, admin, slug, port, baseUrl: partner.baseUrl, status };
}

/** Sends `bytes` of a JSON body in chunks and keeps the request open; resolves with the answer's status. */
function streamBody(url: string, bytes: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number | undefined; sent: number }>((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
    });
    let sent = 0;
    req.flushHeaders();
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode, sent });
      req.destroy();
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const write = () => {
      while (sent < bytes) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
    };
    write();
  });
}

/** Sends `head` (request line and headers, as given) on a raw socket; resolves with the answer's status. */
function rawStatus(port: string, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('end', () => reject(new Error(`no status line in ${JSON.stringify(text)}`)));
  });
}

describe('the admin API lets in this machine only (security review of issue 27, finding 4)', () => {
  it('answers only Host names of this machine, and those allowHosts adds (DNS rebinding)', async ({
    onTestFinished,
  }) => {
    const { fake, admin, port } = await startAdmin({ allowHosts: ['devbox.test'] });
    onTestFinished(() => fake.close());
    const rebound = await admin('GET', '/settings', { host: `attacker.example:${port}` });
    expect(rebound).toMatchObject({ status: 403, body: { code: 'host_not_allowed' } });
    for (const host of [`localhost:${port}`, `127.0.0.2:${port}`, `[::1]:${port}`, `devbox.test:${port}`]) {
      expect((await admin('GET', '/settings', { host })).status, host).toBe(200);
    }
  });

  it('parses Host strictly: a loopback-looking prefix or userinfo is not loopback, nor is no Host at all (issue 36, finding 10)', async ({
    onTestFinished,
  }) => {
    const { fake, port } = await startAdmin();
    onTestFinished(() => fake.close());
    const get = (host: string | undefined, version = '1.1') =>
      rawStatus(
        port,
        `GET /__admin/settings HTTP/${version}${host === undefined ? '' : `\r\nHost: ${host}`}`,
      );
    for (const host of [
      '[::1].evil.com',
      `127.0.0.1:1@evil.com`,
      `localhost:${port}.evil.com`,
      '',
      `[::1]x:${port}`,
    ]) {
      expect(await get(host), host).toBe(403);
    }
    expect(await get(undefined, '1.0'), 'HTTP/1.0 without Host').toBe(403);
    for (const host of [`127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', `LOCALHOST.:${port}`]) {
      expect(await get(host), host).toBe(200);
    }
  });

  it('refuses a cross-site Origin, and takes its own', async ({ onTestFinished }) => {
    const { fake, admin, slug, baseUrl, status } = await startAdmin();
    onTestFinished(() => fake.close());
    for (const origin of ['https://evil.example', 'null', 'http://localhost:1']) {
      const answer = await admin('POST', `/spv-requests/${slug}/approve`, { origin });
      expect(answer, origin).toMatchObject({ status: 403, body: { code: 'cross_origin' } });
    }
    expect(status()).toBe('pending-review');
    expect((await admin('POST', `/spv-requests/${slug}/approve`, { origin: baseUrl })).status).toBe(200);
    expect(status()).toBe('approved');
  });

  it('refuses a text/plain body (a cross-site form needs no preflight), and a body with no type', async ({
    onTestFinished,
  }) => {
    const { fake, admin, slug, status } = await startAdmin();
    onTestFinished(() => fake.close());
    const plain = await admin('POST', `/spv-requests/${slug}/reject`, { 'content-type': 'text/plain' }, '{}');
    expect(plain).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const untyped = await admin('POST', `/spv-requests/${slug}/reject`, {}, '{}');
    expect(untyped.status).toBe(415);
    expect(status()).toBe('pending-review');
    const json = await admin(
      'POST',
      `/spv-requests/${slug}/reject`,
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(json.status).toBe(200);
    expect(status()).toBe('rejected');
  });

  it('answers 413 at 1 MiB, before the client has sent the rest of its body', async ({ onTestFinished }) => {
    const { fake, baseUrl } = await startAdmin();
    onTestFinished(() => fake.close());
    // Chunked: the server reads to its cap, answers, and closes; the client never ends its body.
    const chunked = await streamBody(`${baseUrl}/__admin/clients`, 2 * 1024 * 1024);
    expect(chunked.status).toBe(413);
    // A declared length over the cap is refused before a byte of it is read.
    const declared = await streamBody(`${baseUrl}/__admin/clients`, 0, { 'content-length': String(400e6) });
    expect(declared).toEqual({ status: 413, sent: 0 });
  });

  it('with a token: every admin request needs it as a bearer token', async ({ onTestFinished }) => {
    const token = 'an-admin-token-of-32-characters!';
    const { fake, admin, slug, status } = await startAdmin({ token });
    onTestFinished(() => fake.close());
    const none = await admin('GET', '/settings');
    expect(none).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.stringify(none.body)).not.toContain(token);
    const wrong = await admin('POST', `/spv-requests/${slug}/approve`, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(status()).toBe('pending-review');
    const right = await admin('POST', `/spv-requests/${slug}/approve`, { authorization: `Bearer ${token}` });
    expect(right.status).toBe(200);
    expect(() => new FakePartnerEquity({ adminApi: { token: 'short' } })).toThrow(/adminApi.token/);
  });
});
