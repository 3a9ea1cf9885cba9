// The mock says what is in force and what it saw (issue 47): its banner confirms --rate-limit, --max-body
// and each --fault (or says none are on), and its admin API counts what it answered.
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';

describe('partner-equity mock: the limits and faults in force, and what it answered', () => {
  it('the banner says each limit and fault; GET /__admin/requests counts the answers', async ({
    onTestFinished,
  }) => {
    const mock = startCli([
      'mock',
      '--port',
      '0',
      '--rate-limit',
      '10/s',
      '--max-body',
      '64k',
      '--fault',
      'GET /v1/oauth2/info 503 x1',
    ]);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_BASE_URL=.*$/m);
    const banner = mock.stdout();
    expect(banner).toContain(
      'Limits in force: rate limit 10 requests per 1 s per client (429 with Retry-After beyond it); JSON bodies over 65536 bytes (64 KiB) answered 413 with an HTML page, as a proxy would\n',
    );
    expect(banner).toContain('Fault injected: GET /v1/oauth2/info 503 x1\n');
    expect(banner).toMatch(/curl '.*\/__admin\/requests\?limit=0' +# what the mock answered/);

    const baseUrl = /^export PE_BASE_URL=(.*)$/m.exec(banner)![1]!;
    const info = await fetch(`${baseUrl}/v1/oauth2/info`); // the fault: 503
    expect(info.status).toBe(503);
    const counts = await fetch(`${baseUrl}/__admin/requests?limit=0`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(await counts.json()).toEqual({
      total: 1,
      byStatus: { '503': 1 },
      byRoute: { 'GET /v1/oauth2/info': { '503': 1 } },
      requests: [],
    });
  });

  it('says none are in force when none were asked for', async ({ onTestFinished }) => {
    const mock = startCli(['mock', '--port', '0']);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_BASE_URL=.*$/m);
    expect(mock.stdout()).toContain(
      'Limits in force: none (--rate-limit, --max-body)\nFaults in force: none (--fault)\n',
    );
  });
});
