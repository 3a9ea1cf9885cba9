// Authenticate with Partner Equity: generate a key pair once, register its public half, then give the
// private key to the client, which signs assertions and obtains, caches and renews tokens by itself.
//
//   npm exec -- tsx examples/authenticate.ts   (against an in-process fake; with PE_* variables set, against
//                                       that environment, skipping the key generation)
import { AuthenticationError, generateKeyPair, PartnerEquity } from '@partner-equity/sdk';
import { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { credentialsFromEnv } from './support/connect.js';

async function main(): Promise<void> {
  const fromEnv = await credentialsFromEnv();
  if (fromEnv !== undefined) {
    // Your environment: `baseUrl` must be exactly its base URL, which is also the assertion's `aud`.
    const client = new PartnerEquity(fromEnv);
    try {
      console.log('token info:', await client.oauth.info());
    } finally {
      await client.close();
    }
    return;
  }

  const fake = new FakePartnerEquity();
  const { baseUrl } = await fake.listen();
  try {
    // 1. Once, at onboarding (or `partner-equity keys generate` in a shell): keep `privateKeyPem` in your
    //    secret manager and send `publicKeyJwk` to Partner Equity, who registers it for your client_id.
    const { privateKeyPem, publicKeyJwk } = await generateKeyPair();
    console.log('public key to register:', JSON.stringify(publicKeyJwk));
    const clientId = 'client_123';
    const issuer = 'https://api.partner.example'; // your own API's base URL: the assertion's `iss`
    fake.admin.registerClient({ clientId, issuer, publicKey: publicKeyJwk, applicationName: 'Example app' }); // their side

    // 2. Every process: build one client and reuse it. The first call that needs a token gets one.
    const client = new PartnerEquity({ baseUrl, clientId, issuer, privateKey: privateKeyPem });
    const info = await client.oauth.info();
    // The spec does not name the token info fields; this server's are printed as they come.
    console.log(`authenticated; token info: ${JSON.stringify(info)}`);

    // 3. What a key Partner Equity does not know looks like: a 401 at the first call, never a retry loop.
    const stranger = new PartnerEquity({
      baseUrl,
      clientId,
      issuer,
      privateKey: (await generateKeyPair()).privateKeyPem,
    });
    try {
      await stranger.oauth.info();
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      console.log(`an unregistered key is refused: ${error.status} ${error.code}`);
    } finally {
      await stranger.close();
    }
    await client.close();
  } finally {
    await fake.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
