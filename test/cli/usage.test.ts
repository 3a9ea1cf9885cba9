import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { runCli } from './cli-process.js';

const subcommands = [
  ['keys', 'generate'],
  ['token'],
  ['doctor'],
  ['import', 'investors'],
  ['import', 'subscriptions'],
  ['mock'],
  ['webhooks', 'sign'],
  ['webhooks', 'verify'],
  ['webhooks', 'listen'],
];

/** One line on stderr, nothing that looks like a stack frame or an internal path. */
function expectOneLineError(stderr: string, pattern: RegExp) {
  expect(stderr).toMatch(pattern);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
}

describe.concurrent('partner-equity usage', () => {
  it('lists every subcommand on --help and exits 0', async () => {
    const { status, stdout } = await runCli(['--help']);
    expect(status).toBe(0);
    for (const path of subcommands) expect(stdout).toContain(`  ${path.join(' ')} `);
  });

  it('prints the help on stderr and exits 2 without a command', async () => {
    const { status, stdout, stderr } = await runCli([]);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Usage: partner-equity <command>');
  });

  it('prints the version', async () => {
    const { status, stdout } = await runCli(['--version']);
    expect(status).toBe(0);
    expect(stdout).toBe(`${VERSION}\n`);
  });

  it.each(subcommands.map((path) => [path.join(' '), path] as const))(
    '%s --help shows its usage and exits 0',
    async (_name, path) => {
      const { status, stdout, stderr } = await runCli([...path, '--help']);
      expect(status).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toContain(`Usage: partner-equity ${path.join(' ')}`);
      expect(stdout).toContain('-h, --help');
    },
  );

  it('lists a group of subcommands when only the group is named', async () => {
    const { status, stderr } = await runCli(['webhooks']);
    expect(status).toBe(2);
    expect(stderr).toContain('webhooks sign');
    expect(stderr).not.toContain('keys generate');
  });

  it.each([
    [['nope'], /^partner-equity: unknown command 'nope'/],
    [['webhooks', 'nope'], /^partner-equity: unknown command 'webhooks nope'/],
    [['keys', 'generate', '--bogus'], /^partner-equity keys generate: unknown option '--bogus'/],
    [['keys', 'generate', '--out'], /^partner-equity keys generate: option '--out' needs a value/],
    [['keys', 'generate', '--out=--force'], /option '--out' needs a value, got '--force'/],
    [['keys', 'generate', '--force=yes'], /option '--force' takes no value/],
    [['keys', 'generate', 'stray'], /unexpected argument 'stray'/],
    [
      ['webhooks', 'sign', '--body', '{}'],
      /no webhook secret: set PE_WEBHOOK_SECRET or PE_WEBHOOK_SECRET_FILE, or pass --secret-file/,
    ],
    [
      ['webhooks', 'listen', '--secret', 'whsec_AAAA', '--port', '70000'],
      /'--port' must be an integer from 0 to 65535/,
    ],
    [
      ['webhooks', 'sign', '--secret', 'whsec_AAAA', '--timestamp', '12.5', '--body', '{}'],
      /'--timestamp' must be an integer/,
    ],
    [
      ['token'],
      /missing --base-url \(PE_BASE_URL\), --client-id \(PE_CLIENT_ID\), --issuer \(PE_ISSUER\), --private-key-file \(PE_PRIVATE_KEY_FILE\)/,
    ],
  ])('%j → one-line usage error, exit 2', async (args, pattern) => {
    const { status, stdout, stderr } = await runCli(args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expectOneLineError(stderr, pattern);
    if (args[0] !== 'nope' && args[1] !== 'nope') expect(stderr).toContain('--help');
  });

  it('reports a failure that is not a usage error with exit 1 and one line', async () => {
    const { status, stderr } = await runCli(['token'], {
      env: {
        PE_BASE_URL: 'http://127.0.0.1:9',
        PE_CLIENT_ID: 'client_1',
        PE_ISSUER: 'https://partner.example',
        PE_PRIVATE_KEY_FILE: '/nonexistent/key.pem',
      },
    });
    expect(status).toBe(1);
    expectOneLineError(
      stderr,
      /^partner-equity token: cannot read the private key file '\/nonexistent\/key\.pem' \(ENOENT\): set PE_PRIVATE_KEY_FILE/,
    );
  });
});
