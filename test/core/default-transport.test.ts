import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../resources/fake-harness.js';

const api = useFakeApi();

/** An undici Agent that counts the requests dispatched through it. */
class CountingAgent extends Agent {
  dispatched: string[] = [];
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.dispatched.push(`${options.method} ${options.path}`);
    return super.dispatch(options, handler);
  }
}

describe('the transport a client sends with', () => {
  it('a dispatcher carries every request: the token exchange and the call', async () => {
    const dispatcher = new CountingAgent();
    try {
      const { client, credentials, fake } = await api.start({ client: { dispatcher } });
      expect((await client.oauth.info()).clientId).toBe(credentials.clientId);
      expect(dispatcher.dispatched).toEqual(['POST /v1/oauth2/tokens', 'GET /v1/oauth2/info']);
      expect(fake.requests.map((request) => request.path)).toEqual(['/v1/oauth2/tokens', '/v1/oauth2/info']);
    } finally {
      await dispatcher.close();
    }
  });
});
