import { describe, expect, it } from 'vitest';
import { startCli } from '../cli/cli-process.js';

describe('partner-equity mock: a fault pattern that backtracks (security review of issue 46)', () => {
  it("keeps answering with --fault 're:^/(a+)+$' and a path built to backtrack, then stops on SIGTERM", async ({
    onTestFinished,
  }) => {
    const mock = startCli(['mock', '--port', '0', '--fault', 're:^/(a+)+$ 503 x5']);
    onTestFinished(async () => {
      await mock.stop();
    });
    const [, baseUrl] = await mock.waitFor(/^export PE_BASE_URL=(.*)$/m);
    // 40 a's and a b: 2^40 steps for a backtracking engine, a hung event loop before the bound.
    const hostile = await fetch(`${baseUrl}/${'a'.repeat(40)}b`);
    expect(hostile.status).toBe(404);
    // The pattern still matches the paths it was written for, and fires there.
    expect((await fetch(`${baseUrl}/aaaa`)).status).toBe(503);
    const health = await fetch(`${baseUrl}/public/hc`);
    expect(health.status).toBe(200);
    expect(await mock.stop()).toBe(0);
  });
});
