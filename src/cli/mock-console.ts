import { createInterface } from 'node:readline';
import type { FakeAdmin } from '../testing/admin.js';
import type { CliIo } from './command.js';

/** What the console's `help` prints. */
export const CONSOLE_HELP = [
  'Admin commands (type them here while the mock runs):',
  '  requests                      list SPV requests',
  '  approve <slug>                approve a pending request (emits spv_request.completed)',
  '  reject <slug> [reason…]       reject a pending request',
  '  cancel <slug>                 cancel a pending request as an administrator',
  '  subscriptions                 list subscriptions',
  '  complete <subscriptionSlug>   mark a subscription Completed (emits subscription.completed)',
  '  help                          this list',
].join('\n');

/**
 * The reviewer's side of the fake, line by line on stdin: what an administrator does in the service's back
 * office. Ends quietly when stdin ends (a closed or non-interactive stdin leaves the mock serving).
 */
export function startMockConsole(admin: FakeAdmin, io: CliIo): () => void {
  const lines = createInterface({ input: io.stdin, terminal: false });
  const say = (text: string) => io.stdout.write(`${text}\n`);
  lines.on('line', (line) => {
    const [command, slug, ...rest] = line.trim().split(/\s+/);
    try {
      switch (command) {
        case '':
        case undefined:
          return;
        case 'requests':
          for (const r of admin.snapshot().spvRequests) {
            say(`${r.spvRequestSlug}  ${r.status}  ${r.templateId}@${r.templateVersion}`);
          }
          return;
        case 'approve': {
          const approved = admin.approveSpvRequest(required(slug));
          say(`approved ${approved.spvRequestSlug}: SPV ${approved.materialisedRefs?.vehicleSlug}`);
          return;
        }
        case 'reject':
          say(
            `rejected ${admin.rejectSpvRequest(required(slug), rest.join(' ') || undefined).spvRequestSlug}`,
          );
          return;
        case 'cancel':
          say(`cancelled ${admin.cancelSpvRequest(required(slug)).spvRequestSlug}`);
          return;
        case 'subscriptions':
          for (const s of admin.snapshot().subscriptions) {
            say(
              `${s.slug}  ${s.status}  spv ${s.spvSlug}  person ${s.personId}  ${s.lumpSum.value} ${s.lumpSum.currency}`,
            );
          }
          return;
        case 'complete':
          say(`completed ${admin.completeSubscription(required(slug)).subscriptionSlug}`);
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

function required(slug: string | undefined): string {
  if (slug === undefined) throw new Error('give a slug');
  return slug;
}
