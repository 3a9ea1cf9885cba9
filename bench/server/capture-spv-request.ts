import { importSdk } from '../lib/build-sdk.js';
import { spvBody } from '../lib/fixtures.js';
import { rawTokenResponse } from '../lib/raw-token.js';
import type { ReplayConfig } from './protocol.js';
import type { FakeServerProcess } from './spawn-fake-server.js';
import { capture } from './spawn-replay-server.js';

/** An approved SPV request on the fake, and the routes a replay server answers for it. */
export interface CapturedSpvRequest {
  slug: string;
  /** `/v1/spv-requests/{slug}`. */
  path: string;
  /** A token the fake accepts, for the hand-written clients and the replay server's bearer check. */
  token: string;
  /** The captured GET of the request and the token endpoint's answer, for {@link ReplayConfig}. */
  replay: Pick<ReplayConfig, 'routes' | 'publicRoutes' | 'token'>;
  /** Bytes of the GET's JSON body. */
  bodyBytes: number;
}

/**
 * Creates and approves an SPV request through the SDK on `fake`, then captures its GET and a token
 * response, so a replay server can answer both byte for byte.
 */
export async function captureSpvRequest(fake: FakeServerProcess): Promise<CapturedSpvRequest> {
  const { PartnerEquity } = await importSdk();
  const client = new PartnerEquity({ ...fake.partner });
  try {
    const created = await client.spvRequests.create(await spvBody(client));
    await fake.approveSpvRequest(created.spvRequestSlug);
    const slug = created.spvRequestSlug;
    const path = `/v1/spv-requests/${encodeURIComponent(slug)}`;
    const tokenResponse = await rawTokenResponse(fake.partner);
    const token = (JSON.parse(tokenResponse.body) as { accessToken: string }).accessToken;
    const captured = await capture(fake.baseUrl, path, token);
    return {
      slug,
      path,
      token,
      replay: {
        token,
        routes: { [`GET ${path}`]: captured, 'POST /v1/oauth2/tokens': tokenResponse },
        publicRoutes: ['POST /v1/oauth2/tokens'],
      },
      bodyBytes: captured.body.length,
    };
  } finally {
    await client.close();
  }
}
