import { printable } from '../../core/logging/printable.js';
import { isCleartextToNetwork } from '../../core/transport/loopback-host.js';
import type { PartnerEquity } from '../../index.js';
import type { SPV_REQUEST_STATUSES, SpvRequestListItem } from '../../schemas/spv-requests.js';
import type { CliIo, Command, OptionSpec, OptionValues } from '../command.js';
import { credentialOptions, readCredentials } from '../credentials.js';
import { flag, stringValue } from '../parse-options.js';
import { stderrLogger } from '../stderr-logger.js';
import { UsageError } from '../usage-error.js';

type Status = (typeof SPV_REQUEST_STATUSES)[number];
// Written out rather than imported: the command table loads without zod (only `run` loads the SDK).
const STATUSES: readonly Status[] = ['pending-review', 'approved', 'rejected', 'cancelled'];

const sharedOptions: Record<string, OptionSpec> = {
  ...credentialOptions,
  json: { type: 'boolean', description: 'Print JSON instead of a table' },
  'allow-insecure-http': {
    type: 'boolean',
    description: 'Allow a plain http base URL to another host (the token then travels in cleartext)',
  },
};

const shownHelp = [
  "Shows each request's slug, status, name and currency, and once approved the SPV slug to import subscriptions",
  "into (materialisedRefs.vehicleSlug) and each share class's slug and name. `partner-equity import",
  'subscriptions` takes either slug: given an approved request slug (spvr_…), it imports into its SPV.',
].join('\n');

/** What the table and `--json` show of a request. */
interface SpvRequestView {
  spvRequestSlug: string;
  status: string;
  name: string | null;
  /** The currency every subscription to its SPV pays in (the request's `attributes.currency`). */
  currency: string | null;
  spvSlug: string | null;
  shareClasses: { slug: string; name: string }[];
}

function view(request: SpvRequestListItem): SpvRequestView {
  const name = request.attributes?.['name'];
  const currency = request.attributes?.['currency'];
  return {
    spvRequestSlug: request.spvRequestSlug ?? '',
    status: request.status ?? '',
    name: typeof name === 'string' ? name : null,
    currency: typeof currency === 'string' ? currency : null,
    spvSlug: request.materialisedRefs?.vehicleSlug ?? null,
    shareClasses: (request.feesAndCarry?.shareClasses ?? []).map(({ slug, name: className }) => ({
      slug,
      name: className,
    })),
  };
}

function table(views: readonly SpvRequestView[]): string {
  const rows = [
    ['SLUG', 'STATUS', 'NAME', 'CURRENCY', 'SPV SLUG', 'SHARE CLASSES'],
    ...views.map((v) => [
      v.spvRequestSlug,
      v.status,
      v.name ?? '-',
      v.currency ?? '-',
      v.spvSlug ?? '-',
      v.shareClasses.map(({ slug, name }) => `${slug} "${name}"`).join(', ') || '-',
    ]),
  ];
  // Names, slugs and share classes are the server's text: escapes are shown, never run.
  const cells = rows.map((row) => row.map(printable));
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return `${cells
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

async function withClient<T>(
  values: OptionValues,
  io: CliIo,
  use: (client: PartnerEquity) => Promise<T>,
): Promise<T> {
  const credentials = await readCredentials(values, io);
  const allowInsecureHttp = flag(values, 'allow-insecure-http');
  if (!allowInsecureHttp && isCleartextToNetwork(credentials.baseUrl)) {
    throw new UsageError(
      'the base URL is plain http to another host: use https, or pass --allow-insecure-http',
    );
  }
  // Loaded when the command runs, so `--help` and the other commands never pay for the client.
  const [{ PartnerEquity }, { LOG_LEVEL_ENV, resolveLogLevel }] = await Promise.all([
    import('../../index.js'),
    import('../../core/logging/logger.js'),
  ]);
  const client = new PartnerEquity({
    ...credentials,
    allowInsecureHttp,
    logger: stderrLogger(io.stderr),
    logLevel: resolveLogLevel(undefined, io.env[LOG_LEVEL_ENV]),
  });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** `partner-equity spv-requests list`: every SPV request of the client, with the SPV slug to import into. */
export const spvRequestsList: Command = {
  path: ['spv-requests', 'list'],
  summary: 'List your SPV requests: status, name, currency, SPV slug and share classes',
  synopsis: '[--status <status>] [--json]',
  details: shownHelp,
  options: {
    ...sharedOptions,
    status: {
      type: 'string',
      valueName: '<status>',
      description: `Only requests in this status (${STATUSES.join(', ')})`,
    },
  },
  async run(values, io) {
    const given = stringValue(values, 'status');
    const status = STATUSES.find((candidate) => candidate === given);
    if (given !== undefined && status === undefined) {
      throw new UsageError(`--status '${given}': expected one of ${STATUSES.join(', ')}`);
    }
    const views = await withClient(values, io, async (client) => {
      const list: SpvRequestView[] = [];
      for await (const request of client.spvRequests.list(status === undefined ? {} : { status })) {
        // The spec does not show a list entry's fields: read an approved one whole when its SPV is missing.
        const whole =
          request.status === 'approved' && request.materialisedRefs == null && request.spvRequestSlug != null
            ? await client.spvRequests.get(request.spvRequestSlug)
            : request;
        list.push(view(whole));
      }
      return list;
    });
    if (flag(values, 'json')) io.stdout.write(`${JSON.stringify(views, null, 2)}\n`);
    else if (views.length === 0)
      io.stderr.write(`no SPV requests${status === undefined ? '' : ` ${status}`}\n`);
    else io.stdout.write(table(views));
    return 0;
  },
};

/** `partner-equity spv-requests get <slug>`: one SPV request, with the SPV slug to import into. */
export const spvRequestsGet: Command = {
  path: ['spv-requests', 'get'],
  summary: 'Show one SPV request: status, name, currency, SPV slug and share classes',
  synopsis: '<slug> [--json]',
  details: shownHelp,
  positionals: ['slug'],
  options: sharedOptions,
  async run(values, io) {
    const slug = stringValue(values, 'slug') ?? '';
    const request = await withClient(values, io, (client) => client.spvRequests.get(slug));
    io.stdout.write(
      flag(values, 'json') ? `${JSON.stringify(view(request), null, 2)}\n` : table([view(request)]),
    );
    return 0;
  },
};
