import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import { checkOf, statuses } from './harness.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('connection checks', () => {
  it('a refused connection: fails with the fix, and the checks that need the service are not run', async () => {
    const client = new PartnerEquity({ baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
    const report = await client.doctor();
    await client.close();
    expect(statuses(report)).toEqual([
      'fails reachability',
      'skipped authentication',
      'skipped contracts',
      'skipped openapi',
      'skipped webhook-endpoint',
    ]);
    expect(checkOf(report, 'reachability')).toMatchObject({
      explanation: '127.0.0.1:9 refused the connection',
      fix: 'Check the port of the base URL, and that the service (or `partner-equity mock`) is running',
    });
    expect(report.ok).toBe(false);
  });

  describe.skipIf(!hasOpenssl())('TLS, against an https server with a self-signed certificate', () => {
    let dir: string;
    let url: string;
    let cert: string;
    let close: () => Promise<void>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'pe-doctor-tls-'));
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-days',
          '2',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
      const server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('date', new Date().toUTCString());
        res.end(req.url === '/public/hc' ? '{"status":"ok"}' : '{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () => new Promise((resolve) => server.close(() => resolve()));
    });
    afterAll(async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('an untrusted certificate: reachability fails, naming TLS and NODE_EXTRA_CA_CERTS', async () => {
      const client = new PartnerEquity({ baseUrl: url, logLevel: 'off' });
      const report = await client.doctor({ only: ['connection'] });
      await client.close();
      const check = checkOf(report, 'reachability');
      expect(check.status).toBe('fails');
      expect(check.explanation).toMatch(/^TLS failed with 127\.0\.0\.1:\d+: its certificate is not trusted/);
      expect(check.fix).toMatch(/NODE_EXTRA_CA_CERTS/);
      expect(check.details?.[0]).toMatch(/^error codes: .*(SELF_SIGNED|UNABLE_TO_VERIFY|CERT)/);
    });

    it('the certificate trusted through a dispatcher: reachability and TLS ok', async () => {
      const dispatcher = new Agent({ connect: { ca: cert } });
      const client = new PartnerEquity({ baseUrl: url, logLevel: 'off', dispatcher });
      const report = await client.doctor({ only: ['connection'] });
      await dispatcher.close();
      expect(statuses(report)).toEqual(['ok reachability', 'ok tls', 'ok server-clock']);
      expect(checkOf(report, 'tls').explanation).toMatch(
        /^https: 127\.0\.0\.1:\d+ answered over TLS, its certificate accepted$/,
      );
    });
  });
});
