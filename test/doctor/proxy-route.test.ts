import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOf, type DoctorEnv, startDoctorEnv } from './harness.js';

// The doctor says how requests leave the process: behind a corporate proxy, "unreachable" is often the
// proxy, not the service. (vitest runs each file in a worker thread of its own: process.env is its copy.)
let env: DoctorEnv | undefined;
const saved = { ...process.env };
afterEach(async () => {
  process.env = { ...saved };
  await env?.close();
  env = undefined;
});

describe('the doctor names the route', () => {
  it('direct when no proxy variable is set, the dispatcher when one is given', async () => {
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) delete process.env[name];
    env = await startDoctorEnv('default');
    const direct = await env.client().doctor({ only: ['connection'] });
    expect(checkOf(direct, 'tls').details).toEqual(['route: direct: no HTTPS_PROXY or HTTP_PROXY is set']);
    const dispatcher = new Agent();
    const own = await env.client({ dispatcher }).doctor({ only: ['connection'] });
    await dispatcher.close();
    expect(checkOf(own, 'tls').details).toEqual([
      'route: through the `dispatcher` option (proxy variables are its own to honour)',
    ]);
  });

  it('the proxy from HTTP_PROXY, its password hidden, when it cannot be reached', async () => {
    env = await startDoctorEnv('default');
    process.env['HTTP_PROXY'] = 'http://build:hunter2@127.0.0.1:9';
    const report = await env.client().doctor({ only: ['connection'] });
    const reachability = checkOf(report, 'reachability');
    expect(reachability.status).toBe('fails');
    expect(reachability.details).toContain('route: through the proxy http://***@127.0.0.1:9 (HTTP_PROXY)');
    expect(JSON.stringify(report)).not.toContain('hunter2');
  });
});
