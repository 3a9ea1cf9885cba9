// `npm run quickstart`: a tour of the SDK. With no PE_* variables it starts the fake API in this process,
// registers a new key and walks the whole partner flow. With PE_BASE_URL, PE_CLIENT_ID, PE_ISSUER and
// PE_PRIVATE_KEY_FILE set, it runs only the read-only steps against that environment.
import { generateKeyPair, PartnerEquity } from '@partner-equity/sdk';
import { FakePartnerEquity } from '@partner-equity/sdk/testing';
import { partnerFlowSteps } from './quickstart/partner-flow-steps.js';
import { readOnlySteps } from './quickstart/read-only-steps.js';
import { RecordingLogger, Report } from './quickstart/report.js';
import { credentialsFromEnv, followWallClock } from './support/connect.js';
import { startWebhookInbox } from './support/webhook-inbox.js';

async function main(): Promise<void> {
  const started = performance.now();
  const report = new Report();
  const log = new RecordingLogger();
  const fromEnv = await credentialsFromEnv();

  if (fromEnv !== undefined) {
    console.log(`Partner Equity SDK quickstart, read-only, against ${fromEnv.baseUrl}`);
    const client = new PartnerEquity({ ...fromEnv, logger: log, logLevel: 'debug' });
    try {
      await readOnlySteps(client, log, report);
    } finally {
      await client.close();
    }
  } else {
    const fake = new FakePartnerEquity();
    const stopClock = followWallClock(fake);
    const { baseUrl } = await fake.listen();
    const inbox = await startWebhookInbox();
    console.log(
      `Partner Equity SDK quickstart, against the fake API at ${baseUrl} (started in this process)`,
    );
    try {
      report.step('Key pair and registration');
      const { privateKeyPem, publicKeyJwk } = await generateKeyPair();
      report.line(`generated an Ed25519 key pair; public JWK to register: ${JSON.stringify(publicKeyJwk)}`);
      const clientId = 'client_quickstart';
      const issuer = 'https://api.partner.example';
      // With the real service you send the public key to Partner Equity; the fake's admin registers it here.
      fake.admin.registerClient({ clientId, issuer, publicKey: publicKeyJwk, applicationName: 'Quickstart' });
      const endpoint = fake.webhooks.register({ url: inbox.url, clientId });
      inbox.useSecret(endpoint.secret);
      report.line(`registered ${clientId} (iss ${issuer}); webhooks go to ${inbox.url}`);

      const client = new PartnerEquity({
        baseUrl,
        clientId,
        issuer,
        privateKey: privateKeyPem,
        logger: log,
        logLevel: 'debug',
      });
      try {
        const { latestContractVersion } = await readOnlySteps(client, log, report);
        if (latestContractVersion === undefined) throw new Error('the fake lists no contract version');
        await partnerFlowSteps(client, fake, inbox, latestContractVersion, report);
      } finally {
        await client.close();
      }
    } finally {
      stopClock();
      await inbox.close();
      await fake.close();
    }
  }
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  // The SDK's errors say what failed (method, path, status, error code) in their message.
  console.error(`quickstart failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
