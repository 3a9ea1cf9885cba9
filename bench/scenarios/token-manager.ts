import { importSdk, importTesting } from '../lib/build-sdk.js';
import { atMost, type BenchContext, exactly, reported, type ScenarioResult } from '../lib/result.js';

const SCENARIO = '2 token manager';
const HOUR_MS = 3_600_000;

/**
 * Scenario 2, in-process on purpose: the fake's manual clock is handed to the client (`clock` option), so
 * simulated hours pass in seconds and token expiry lines up on both sides. Requests still go over the
 * fake's real loopback server.
 * - Cold start: 1,000 concurrent calls on a client that has no token yet → token exchanges counted by the fake.
 * - 24 simulated hours of steady traffic with 3600 s tokens → exchanges (assertion and refresh grants), and
 *   any call that failed, 401 or otherwise. 401s the server answered (retried by the SDK) are reported too.
 */
export async function runTokenManager({ quick, log }: BenchContext): Promise<ScenarioResult> {
  const { PartnerEquity, AuthenticationError } = await importSdk();
  const { FakePartnerEquity } = await importTesting();

  // Cold client, 1,000 concurrent calls.
  const cold = new FakePartnerEquity({ accessTokenTtlSeconds: 3600 });
  await cold.listen();
  const coldClient = new PartnerEquity({ ...(await cold.createPartner()), clock: cold.clock });
  let coldExchanges: number;
  try {
    const results = await Promise.allSettled(Array.from({ length: 1000 }, () => coldClient.oauth.info()));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed > 0) throw new Error(`${failed} of 1000 cold calls failed`);
    coldExchanges = cold.tokenRequests.length;
  } finally {
    await coldClient.close();
    await cold.close();
  }
  log(`  ${SCENARIO}: 1000 concurrent cold calls → ${coldExchanges} exchange(s)`);

  // Steady traffic over simulated hours.
  const hours = quick ? 3 : 24;
  const tickMs = 30_000;
  const perTick = 4;
  const fake = new FakePartnerEquity({ accessTokenTtlSeconds: 3600 });
  await fake.listen();
  const client = new PartnerEquity({ ...(await fake.createPartner()), clock: fake.clock });
  let calls = 0;
  let failures = 0;
  let authFailures = 0;
  try {
    const end = fake.clock.now() + hours * HOUR_MS;
    while (fake.clock.now() < end) {
      const results = await Promise.allSettled(Array.from({ length: perTick }, () => client.oauth.info()));
      calls += perTick;
      for (const result of results) {
        if (result.status === 'fulfilled') continue;
        failures += 1;
        if (result.reason instanceof AuthenticationError) authFailures += 1;
      }
      await fake.clock.advance(tickMs);
    }
  } finally {
    await client.close();
  }
  const exchanges = fake.tokenRequests.length;
  const grants = fake.tokenRequests.reduce<Record<string, number>>((count, request) => {
    const kind = request.grantType.includes('jwt-bearer') ? 'assertion' : request.grantType;
    count[kind] = (count[kind] ?? 0) + 1;
    return count;
  }, {});
  const server401 = fake.requests.filter((r) => r.status === 401).length;
  await fake.close();
  log(`  ${SCENARIO}: ${hours} h, ${calls} calls → ${exchanges} exchanges, ${failures} failures`);

  // 24 h with renewal at ~50% (±10%) of 3600 s: ~48 renewals after the first token.
  const maxExchanges = Math.ceil((hours * 3600) / 1800) + 1;
  return {
    rows: [
      exactly(SCENARIO, '1,000 concurrent calls on a cold client: exchanges', coldExchanges, 1),
      atMost(SCENARIO, `${hours} simulated hours, 3600 s tokens: exchanges`, exchanges, maxExchanges),
      exactly(SCENARIO, `${hours} simulated hours: calls that failed (401 or any error)`, failures, 0),
      reported(
        SCENARIO,
        `${hours} h: calls / 401s seen by callers / 401s sent by the server / grants`,
        `${calls} / ${authFailures} / ${server401} / ${Object.entries(grants)
          .map(([kind, n]) => `${n} ${kind}`)
          .join(', ')}`,
      ),
    ],
    notes: [
      `Token manager: in-process FakePartnerEquity (3600 s access tokens) over its loopback server, its manual clock shared with the client. Cold start: 1,000 concurrent \`client.oauth.info()\` calls on a new client. Steady traffic: ${perTick} concurrent calls every ${tickMs / 1000} simulated seconds for ${hours} h (${calls} calls); "exchanges" counts every call of the token endpoint (assertion and refresh grants). The bound ${maxExchanges} is one exchange per half-life (renewal at 50% ±10% of expiresIn) plus the first.`,
    ],
  };
}
