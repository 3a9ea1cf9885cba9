import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import type { FakePartnerEquity } from '../../src/testing/index.js';
import type { Exposure } from './exposure.js';
import type { QuotedRequest, QuotingProxy } from './quoting-proxy.js';

interface QuotedScenarioContext {
  fake: FakePartnerEquity;
  /** Options of a working client (through the recording and quoting proxies, debug logging). */
  base: ClientOptions;
  pem: PartnerEquity;
  quoting: QuotingProxy;
  exposure: Exposure;
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * A careless server (or a gateway in front of it) that quotes back the secret it refuses: the assertion in
 * a token 400 and in a 422's `input`, the refresh token in its refusal, the access token in a 401 detail, a
 * response header and a proxy's HTML 500 page, and a token that cannot go in a header. Every error, result
 * and log line these produce joins the whole-suite scan.
 */
export async function runQuotedSecretScenarios({
  fake,
  base,
  pem,
  quoting,
  exposure,
}: QuotedScenarioContext): Promise<PartnerEquity[]> {
  const built: PartnerEquity[] = [];
  const fresh = () => {
    const client = new PartnerEquity(base);
    built.push(client);
    return client;
  };
  let n = 0;
  const step = async (name: string, run: () => PromiseLike<unknown>) => {
    n += 1;
    try {
      exposure.addObject(`quoted ${n} ${name}`, await run());
    } catch (error) {
      exposure.addError(`quoted error ${n} ${name}`, error);
    }
  };
  const tokens = '/v1/oauth2/tokens';
  const info = '/v1/oauth2/info';
  const refuseBearer = ({ bearer }: QuotedRequest) => ({
    status: 401,
    headers: { 'www-authenticate': 'Bearer error="invalid_token"', 'x-upstream-said': `refused ${bearer}` },
    body: json({ code: 'token_revoked', detail: `token ${bearer} was revoked`, errorId: 'e_q1' }),
  });

  quoting.arm(tokens, ({ form }) => ({
    status: 400,
    body: json({ code: 'invalid_grant', detail: `assertion ${form.get('assertion')} rejected` }),
  }));
  await step('token 400 quoting the assertion', () => fresh().oauth.info());

  quoting.arm(tokens, ({ form }) => ({
    status: 422,
    body: json({
      detail: [{ loc: ['body', 'assertion'], msg: 'bad', type: 'x', input: form.get('assertion') }],
    }),
  }));
  await step('token 422 echoing the assertion as input', () => fresh().oauth.info());

  await step('info (a token to be quoted)', () => pem.oauth.info());
  quoting.arm(info, refuseBearer, 2);
  await step('401 quoting the token, renewed, 401 quoting the new one', () => pem.oauth.info());

  quoting.arm(
    info,
    ({ bearer }) => ({
      status: 500,
      headers: { 'content-type': 'text/html' },
      body: `<html><body><h1>Internal Server Error</h1><pre>Authorization: Bearer ${bearer}</pre><p>token=${bearer}</p></body></html>`,
    }),
    3,
  );
  await step("a proxy's HTML 500 page quoting the token (retried)", () => pem.oauth.info());

  // A refresh refused by quoting the refresh token (past half-life, the next call refreshes), then a
  // fallback assertion.
  await fake.clock.advance(200_000);
  quoting.arm(tokens, ({ form }) => ({
    status: 401,
    body: json({ code: 'refresh_token_reused', detail: `refresh_token=${form.get('refresh_token')} reused` }),
  }));
  await step('refresh refused quoting the refresh token', () => pem.oauth.info());
  await fake.idle();
  await step('info after the fallback assertion', () => pem.oauth.info());

  quoting.arm(tokens, () => ({
    status: 201,
    body: json({
      accessToken: 'pe_at_injected_0123456789\r\nx-injected: 1',
      refreshToken: 'pe_rt_injected_0123456789',
      tokenType: 'Bearer',
    }),
  }));
  await step('a token that cannot go in a header', () => fresh().oauth.info());
  return built;
}
