import { createInterface } from 'node:readline';
import type { SpvRequest } from '../schemas/spv-requests.js';
import type { FakeAdmin } from '../testing/admin.js';
import { parseListFilter } from '../testing/admin-api/list-filter.js';
import type { FakeAdminList } from '../testing/admin-lists.js';
import { type FakeRateLimitOption, parseRateLimit } from '../testing/fake-rate-limit.js';
import type { WebhookSchemeInput } from '../webhooks/scheme/webhook-scheme.js';
import type { CliIo } from './command.js';

/** Where `partner-equity mock` serves the fake's admin API. */
export const ADMIN_API_PREFIX = '/__admin';

/** Rows a console list prints unless `limit=` says otherwise. */
const CONSOLE_LIMIT = 20;

/** What the console's `help` prints. */
export const CONSOLE_HELP = [
  'Admin commands (type them here while the mock runs):',
  '  requests [filter…]            SPV requests, newest first, with counts per status',
  '  approve <slug>                approve a pending request (emits spv_request.completed)',
  '  reject <slug> [reason…]       reject a pending request',
  '  cancel <slug>                 cancel a pending request as an administrator',
  '  subscriptions [filter…]       subscriptions, newest first, with counts per status',
  '  complete <subscriptionSlug>   mark a subscription Completed (emits subscription.completed)',
  '  persons [filter…]             investors (persons), newest first',
  '  deliveries [filter…]          webhook deliveries, newest first, with counts per state',
  '  webhook [<url>|off] [secret=<s>] [scheme=<s>]   where events go; without arguments, show it',
  '  auto-approve on|off           approve SPV requests as soon as they are created',
  '  help                          this list',
  `Filters: status=<s>[,<s>…] clientId= templateId= spvSlug= personId= partnerInvestorId= email= eventType= limit=<n> (default ${CONSOLE_LIMIT}) offset=<n>`,
].join('\n');

/** The banner's paragraph on the admin API, with curl lines that work as printed (the token by its variable). */
export function adminApiHelp(origin: string, tokenEnv?: string): string {
  const api = `${origin}${ADMIN_API_PREFIX}`;
  const curl = tokenEnv === undefined ? 'curl' : `curl -H "Authorization: Bearer $${tokenEnv}"`;
  return [
    `Admin API (JSON over HTTP; ${curl} ${api} lists every route):`,
    `  ${curl} '${api}/spv-requests?status=pending-review'`,
    `  ${curl} -X POST ${api}/spv-requests/<slug>/approve`,
    `  ${curl} '${api}/subscriptions?limit=0'          # counts only`,
    `  ${curl} '${api}/requests?limit=0'               # what the mock answered, by route and status`,
  ].join('\n');
}

/**
 * The banner's lines on what the mock does besides the API: the limits in force (`--rate-limit`,
 * `--max-body`) and the faults injected, each said, or `none`, so a run never has to guess.
 */
export function inForceLines(
  limits: { rateLimit?: FakeRateLimitOption; maxBodyBytes?: number },
  faults: readonly string[],
): string[] {
  const said: string[] = [];
  if (limits.rateLimit !== undefined) {
    const { limit, windowMs } = parseRateLimit(limits.rateLimit);
    const window = windowMs % 1000 === 0 ? `${windowMs / 1000} s` : `${windowMs} ms`;
    said.push(`rate limit ${limit} requests per ${window} per client (429 with Retry-After beyond it)`);
  }
  if (limits.maxBodyBytes !== undefined) {
    const bytes = limits.maxBodyBytes;
    const kib = bytes % 1024 === 0 ? ` (${bytes / 1024} KiB)` : '';
    said.push(`JSON bodies over ${bytes} bytes${kib} answered 413 with an HTML page, as a proxy would`);
  }
  return [
    `Limits in force: ${said.length === 0 ? 'none (--rate-limit, --max-body)' : said.join('; ')}`,
    ...(faults.length === 0
      ? ['Faults in force: none (--fault)']
      : faults.map((f) => `Fault injected: ${f}`)),
  ];
}

/** `N of TOTAL <noun> (status count, …)` and one line per item. */
function printList<Item>(
  say: (text: string) => void,
  noun: string,
  list: FakeAdminList<Item>,
  line: (item: Item) => string,
): void {
  const counts = Object.entries(list.byStatus).map(([status, count]) => `${status} ${count}`);
  const shown = list.items.length === list.total ? `${list.total}` : `${list.items.length} of ${list.total}`;
  say(`${shown} ${noun}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`);
  for (const item of list.items) say(`  ${line(item)}`);
  const rest = list.total - list.offset - list.items.length;
  if (rest > 0) say(`  … ${rest} more: add filters, limit=<n> or offset=${list.offset + list.items.length}`);
}

/** `name=value` words as filter pairs, with the console's smaller default page. */
function filterPairs(words: string[]): [string, string][] {
  const pairs = words.map((word): [string, string] => {
    const at = word.indexOf('=');
    return at === -1 ? [word, ''] : [word.slice(0, at), word.slice(at + 1)];
  });
  return pairs.some(([name]) => name === 'limit') ? pairs : [['limit', String(CONSOLE_LIMIT)], ...pairs];
}

/**
 * The reviewer's side of the fake, line by line on stdin: what an administrator does in the service's back
 * office. Ends quietly when stdin ends (a closed or non-interactive stdin leaves the mock serving).
 */
export function startMockConsole(admin: FakeAdmin, io: CliIo): () => void {
  const lines = createInterface({ input: io.stdin, terminal: false });
  const say = (text: string) => io.stdout.write(`${text}\n`);
  lines.on('line', (line) => {
    const words = line.trim().split(/\s+/);
    const [command, slug, ...rest] = words;
    try {
      switch (command) {
        case '':
        case undefined:
          return;
        case 'requests':
          printList(
            say,
            'SPV requests',
            admin.listSpvRequests(parseListFilter('spvRequests', filterPairs(words.slice(1)))),
            (r) => `${r.spvRequestSlug}  ${r.status}  ${r.templateId}@${r.templateVersion}`,
          );
          return;
        case 'approve':
          // The mock prints the approval itself (approvalLine), however the request was approved.
          admin.approveSpvRequest(required(slug));
          return;
        case 'reject':
          say(
            `rejected ${admin.rejectSpvRequest(required(slug), rest.join(' ') || undefined).spvRequestSlug}`,
          );
          return;
        case 'cancel':
          say(`cancelled ${admin.cancelSpvRequest(required(slug)).spvRequestSlug}`);
          return;
        case 'subscriptions':
          printList(
            say,
            'subscriptions',
            admin.listSubscriptions(parseListFilter('subscriptions', filterPairs(words.slice(1)))),
            (s) =>
              `${s.slug}  ${s.status}  spv ${s.spvSlug}  person ${s.personId}  ${s.lumpSum.value} ${s.lumpSum.currency}`,
          );
          return;
        case 'complete':
          say(`completed ${admin.completeSubscription(required(slug)).subscriptionSlug}`);
          return;
        case 'persons':
          printList(
            say,
            'persons',
            admin.listPersons(parseListFilter('persons', filterPairs(words.slice(1)))),
            (p) => `${p.id}  ${p.partnerInvestorId ?? '-'}  ${p.email}  ${p.createdAt}`,
          );
          return;
        case 'deliveries':
          printList(
            say,
            'deliveries',
            admin.listDeliveries(parseListFilter('deliveries', filterPairs(words.slice(1)))),
            (d) => `${d.eventId}  ${d.eventType}  ${d.state}  ${d.attempts.length} attempt(s)  ${d.url}`,
          );
          return;
        case 'webhook':
          say(webhookLine(admin, words.slice(1)));
          return;
        case 'auto-approve':
          if (slug !== 'on' && slug !== 'off') throw new Error('say auto-approve on, or auto-approve off');
          admin.autoApproveSpvRequests = slug === 'on';
          say(`auto-approve is ${slug}`);
          return;
        case 'help':
          say(CONSOLE_HELP);
          return;
        default:
          say(`unknown command '${command}' (type help)`);
      }
    } catch (error) {
      say(`error: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return () => lines.close();
}

/**
 * The line the mock prints when a request is approved (console, admin API or --auto-approve): the SPV slug
 * to import subscriptions into, and its share classes.
 */
export function approvalLine(request: SpvRequest): string {
  const classes = (request.feesAndCarry?.shareClasses ?? [])
    .map(({ slug, name }) => `${slug} "${name}"`)
    .join(', ');
  return `approved ${request.spvRequestSlug}: SPV ${request.materialisedRefs?.vehicleSlug}${classes === '' ? '' : `, share classes ${classes}`}`;
}

/** `webhook [<url>|off] [secret=…] [scheme=…]`: changes what is given, then says where events go. */
function webhookLine(admin: FakeAdmin, words: string[]): string {
  // A scheme name is checked by the webhooks entry, which names the presets when it is not one.
  const change: { url?: string | null; secret?: string; scheme?: WebhookSchemeInput } = {};
  for (const word of words) {
    const [name, value] = word.includes('=')
      ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
      : ['url', word];
    if (name === 'url') change.url = value === 'off' ? null : value;
    else if (name === 'secret') change.secret = value;
    else if (name === 'scheme') change.scheme = value as WebhookSchemeInput;
    else throw new Error(`unknown setting '${name}' (use <url>, off, secret=, scheme=)`);
  }
  const target = admin.setWebhookTarget(change);
  const where = target.endpoints.map((e) => e.url).join(', ') || 'nowhere';
  // A generated secret is shown this once, as the mock's banner shows the first one.
  const secret = target.secret === undefined ? '' : `; new secret: export PE_WEBHOOK_SECRET=${target.secret}`;
  return `events go to ${where}, signed ${target.scheme}${secret}`;
}

function required(slug: string | undefined): string {
  if (slug === undefined) throw new Error('give a slug');
  return slug;
}
