import { describe, expect, it } from 'vitest';
import { runScript, startCli } from '../cli/cli-process.js';

describe('npm run quickstart', () => {
  it('walks the whole partner flow against the in-process fake and exits 0', async () => {
    const { status, stdout, stderr } = await runScript('examples/quickstart.ts');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const steps = [...stdout.matchAll(/^(\d+)\. (.*)$/gm)].map((m) => m[2]!.split(' ')[0]);
    expect(steps).toEqual([
      'Key',
      'Service',
      'Access',
      'Contracts',
      'SPV',
      'SPV',
      'Investors',
      'Subscriptions',
      'Documents:',
      'Completion',
    ]);
    expect(stdout).toMatch(/POST \/v1\/oauth2\/tokens → 201/);
    expect(stdout).toMatch(/"accessToken":"\[REDACTED\]","refreshToken":"\[REDACTED\]".*"expiresIn":3600/);
    // Profile-agnostic (CI also runs this with PARTNER_EQUITY_FAKE_PROFILE=alternate): field names and
    // statuses the spec does not show are not asserted.
    expect(stdout).toMatch(/token info: \{.*"client_quickstart"/);
    expect(stdout).toMatch(/versions: 2024-01, 2025-06 \(latest 2025-06\)/);
    expect(stdout).toMatch(/created spvr_\w+: pending-review/);
    expect(stdout).toMatch(/webhook spv_request\.completed verified \(webhook-id msg_\w+\)/);
    expect(stdout).toMatch(/spvr_\w+ is approved: SPV spv_\w+/);
    expect(stdout).toMatch(/inv-001: \w+ → per_\w+/);
    expect(stdout).toMatch(/inv-003: failed: invalid_field on email/);
    expect(stdout.match(/^ {3}sub_\w+: per_\w+ \{.*\} \S+$/gm)).toHaveLength(2);
    expect(stdout).toMatch(
      /webhook signed_subscription_form\.uploaded verified \(partnerInvestorId inv-001\)/,
    );
    expect(stdout).toMatch(/funding receipt uploaded: 25000\.00 EUR, WIRE-2025-0001/);
    expect(stdout).toMatch(
      /5 webhooks received, every one verified: spv_request\.created, spv_request\.completed, signed_subscription_form\.uploaded, funding_receipt\.uploaded, subscription\.completed/,
    );
    // No secret reaches the output: no JWT (three base64url parts) and no PEM.
    expect(stdout).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    expect(stdout).not.toContain('PRIVATE KEY');
  });

  it('with PE_* variables, runs only the read-only steps against that environment', async ({
    onTestFinished,
  }) => {
    const mock = startCli(['mock', '--port', '0']);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=.*$/m);
    const env = Object.fromEntries(
      [...mock.stdout().matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    const { status, stdout, stderr } = await runScript('examples/quickstart.ts', [], { env });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain(`Partner Equity SDK quickstart, read-only, against ${env['PE_BASE_URL']}`);
    const steps = [...stdout.matchAll(/^\d+\. (\S+)/gm)].map((m) => m[1]);
    expect(steps).toEqual(['Service', 'Access', 'Contracts', 'SPV']);
    expect(stdout).toMatch(new RegExp(`token info: \\{.*"${env['PE_CLIENT_ID']}"`));
    expect(stdout).toContain('0 request(s) in total');
  });

  it('refuses an incomplete set of PE_* variables in one line', async () => {
    const { status, stderr } = await runScript('examples/quickstart.ts', [], {
      env: { PE_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(status).toBe(1);
    expect(stderr).toBe(
      'quickstart failed: Set PE_BASE_URL, PE_CLIENT_ID, PE_ISSUER and PE_PRIVATE_KEY_FILE together (or none of them).\n',
    );
  });
});
