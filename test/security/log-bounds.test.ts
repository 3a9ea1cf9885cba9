import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/memory-logger.js';
import { investorRow, type ReliabilityEnv, startEnv } from '../reliability/fake-env.js';

/**
 * Finding 8 of the security review (issue 16), library side: debug logging wrote whole request bodies — 500
 * investor rows put 500 e-mail addresses in one 78 KB log line. Bodies are now cut at 2 KiB, and personal
 * data fields are masked unless the partner opts in with `logPersonalData: true`.
 */
const LOG_BODY_LIMIT = 2048; // the documented cut (LOG_BODY_LIMIT in src/core/logging/log-body.ts)
let env: ReliabilityEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const rows = Array.from({ length: 500 }, (_, i) => ({
  ...investorRow(`inv-log-${i}`),
  firstName: `Adaline${i}`,
  lastName: `Lovelace${i}`,
}));

async function importAtDebug(logPersonalData: boolean) {
  const logger = memoryLogger();
  env = await startEnv({
    client: { logger, logLevel: 'debug', ...(logPersonalData && { logPersonalData }) },
  });
  await env.client.investors.create(rows);
  const attempts = logger.lines.filter((line) => line.fields?.['path'] === '/v1/investors');
  expect(attempts.length).toBeGreaterThan(0);
  return { logger, attempts };
}

describe('debug log lines are bounded and keep personal data out', () => {
  it('cuts bodies at 2 KiB and masks e-mail, names and dates of birth by default', async () => {
    const { logger, attempts } = await importAtDebug(false);
    for (const line of attempts) {
      const body = line.fields?.['requestBody'];
      expect(typeof body).toBe('string');
      expect(String(body)).toMatch(/… \[truncated, \d+ characters\]$/);
      expect(String(body).length).toBeLessThan(LOG_BODY_LIMIT + 40);
      // The whole line: method, path, headers, both bodies — bounded, whatever the batch size.
      expect(JSON.stringify(line.fields).length).toBeLessThan(3 * LOG_BODY_LIMIT + 2000);
    }
    const text = logger.text();
    expect(text).toContain('[MASKED]');
    for (const leak of ['@example.com', 'Adaline', 'Lovelace', '1985-02-28'])
      expect(text).not.toContain(leak);
    // Not personal: the partner's own ids still help debugging.
    expect(text).toContain('inv-log-0');
  });

  it('shows personal data with logPersonalData: true, still within the 2 KiB cut', async () => {
    const { logger, attempts } = await importAtDebug(true);
    expect(logger.text()).toContain('inv-log-0@example.com');
    expect(logger.text()).toContain('Adaline0');
    for (const line of attempts) {
      expect(JSON.stringify(line.fields).length).toBeLessThan(3 * LOG_BODY_LIMIT + 2000);
    }
  });
});
