// The part of the tour that changes nothing: it runs against the fake, or against a real environment.
import type { PartnerEquity } from '@partner-equity/sdk';
import type { RecordingLogger, Report } from './report.js';

/** What later steps reuse. */
export interface ReadOnlyFindings {
  /** The newest contract version, when the server lists any. */
  latestContractVersion: string | undefined;
}

export async function readOnlySteps(
  client: PartnerEquity,
  log: RecordingLogger,
  report: Report,
): Promise<ReadOnlyFindings> {
  report.step('Service');
  const root = await client.system.root();
  const health = await client.system.health();
  report.line(`GET /            ${JSON.stringify(root)}`);
  report.line(`GET /public/hc   ${JSON.stringify(health)}`);

  report.step('Access token (EdDSA JWT assertion → bearer token; cached and renewed by the client)');
  const info = await client.oauth.info();
  for (const line of log.about('/v1/oauth2/tokens')) {
    report.line(line.message);
    // The SDK's logs redact secrets: the tokens themselves never appear, their lifetimes do.
    report.line(`response body (as logged): ${String(line.fields?.['responseBody'])}`);
  }
  report.line(`token info: ${JSON.stringify(info)}`);

  report.step('Contracts');
  const contractVersions = await client.contracts.versions();
  const { latest } = contractVersions;
  // The spec shows no shape for these lists: one the SDK does not recognise comes back as sent.
  if ('unrecognized' in contractVersions) {
    report.line(`versions, as the server sent them: ${JSON.stringify(contractVersions.unrecognized)}`);
  } else {
    report.line(`versions: ${contractVersions.versions.map((v) => v.version).join(', ')} (latest ${latest})`);
  }
  if (latest !== undefined) {
    // The spec does not show what a contract document holds: print what this server sends.
    const templates = await client.contracts.templates.list(latest);
    if ('unrecognized' in templates) {
      const keys = Object.keys(Object(templates.unrecognized));
      report.line(`templates in ${latest}, in a shape of this server's own; its keys: ${keys.join(', ')}`);
    } else {
      report.line(
        `${templates.length} template(s) in ${latest}; fields: ${Object.keys(templates[0] ?? {}).join(', ')}`,
      );
      const name = [templates[0]?.name, templates[0]?.['templateId']].find((v) => typeof v === 'string');
      if (typeof name === 'string') {
        const template = await client.contracts.templates.get(latest, name);
        report.line(`template ${name}: ${JSON.stringify(template).length} bytes`);
      }
    }
  }

  report.step('SPV requests (first page)');
  const page = await client.spvRequests.list({ perPage: 5 });
  report.line(`${page.count} request(s) in total; this page: ${page.documents.length}`);
  for (const request of page.documents) report.line(`- ${request.spvRequestSlug}  ${request.status}`);
  return { latestContractVersion: latest };
}
