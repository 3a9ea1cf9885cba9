import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stderrLogger } from '../../src/cli/stderr-logger.js';
import { printable } from '../../src/core/logging/printable.js';
import { formatDoctorReport } from '../../src/index.js';
import { runCli } from '../cli/cli-process.js';
import { type ImportFake, newPartner, startImportFake } from '../cli/import-fake.js';
import { spvBody } from '../helpers/spv-body.js';
import { useTestServer } from '../helpers/test-server.js';
import { quotingTokenServer } from './quoting-server.js';

// Security review of issue 46: `spv-requests list/get` and the CLI's error line printed the server's strings
// raw, so ESC, BEL, CR and OSC sequences (window title, hyperlink, clipboard) reached the terminal.
const HOSTILE =
  'Acme\u001b]0;owned\u0007 \u001b]52;c;ZWNobyBvd25lZA==\u0007\r\u001b[2KFake\u009b31m \u202eevil';

const server = useTestServer();
let env: ImportFake;
beforeAll(async () => {
  env = await startImportFake();
});
afterAll(() => env.close());

function controls(text: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
  return [...text.matchAll(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g)].map(
    ([c]) => c,
  );
}

describe('server strings printed on a terminal', () => {
  it('spv-requests list and get show a name with escapes as text, each control character escaped', async () => {
    const partner = await newPartner(env);
    const body = await spvBody(partner.client);
    const request = await partner.client.spvRequests.create({
      ...body,
      attributes: { ...body.attributes, name: HOSTILE },
    });
    for (const args of [
      ['spv-requests', 'list'],
      ['spv-requests', 'get', request.spvRequestSlug],
    ]) {
      const { status, stdout } = await runCli(args, { env: partner.env });
      expect(status).toBe(0);
      expect(controls(stdout)).toEqual([]);
      expect(stdout).toContain(printable(HOSTILE));
      expect(stdout).toContain('Acme\\x1b]0;owned\\x07');
    }
  });

  it("the CLI's error line shows a server message's escapes as text", async () => {
    quotingTokenServer(server(), {
      '/v1/spv-requests/spvr_1': [() => ({ status: 404, body: { code: 'not_found', detail: HOSTILE } })],
    });
    const partner = await newPartner(env);
    const { status, stderr } = await runCli(['spv-requests', 'get', 'spvr_1'], {
      env: { ...partner.env, PE_BASE_URL: server().url },
    });
    expect(status).toBe(1);
    expect(stderr).toContain('Acme\\x1b]0;owned\\x07');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(controls(stderr)).toEqual([]);
  });

  it('printable escapes C0, DEL, C1 and bidi controls, and keeps other text', () => {
    expect(printable('a\u001bb\u0007c\rd\ne\u007ff\u009bg\u202eh\u2028i é 中 🙂')).toBe(
      'a\\x1bb\\x07c\\x0dd\\x0ae\\u007ff\\u009bg\\u202eh\\u2028i é 中 🙂',
    );
  });

  it("the doctor's report and the CLI's log lines show a server's words with their escapes as text", () => {
    const report = formatDoctorReport(
      {
        ok: false,
        status: 'fails',
        baseUrl: 'https://api.example',
        responseValidation: 'warn',
        startedAt: '2026-11-29T00:00:00Z',
        checks: [
          {
            id: 'reachability',
            group: 'connection',
            title: 'Reachability',
            status: 'fails',
            explanation: `the service said ${HOSTILE}`,
            fix: HOSTILE,
            details: [HOSTILE],
          },
        ],
      },
      { color: true },
    );
    // Only the report's own colours are escapes: `ESC [ <digits> m`.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the report's colour codes, taken out
    expect(controls(report.replace(/\u001b\[\d+m/g, ''))).toEqual([]);
    expect(report).toContain(printable(HOSTILE));
    let written = '';
    const stderr = new Writable({
      write: (chunk, _encoding, done) => {
        written += String(chunk);
        done();
      },
    });
    stderrLogger(stderr).warn(`the service said ${HOSTILE}`, { quoted: HOSTILE });
    expect(controls(written.replace(/\n$/, ''))).toEqual([]);
    expect(JSON.parse(written.slice(written.indexOf('{')))).toEqual({ quoted: HOSTILE });
  });
});
