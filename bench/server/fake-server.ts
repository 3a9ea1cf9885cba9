// The fake API's loopback server in its own process (started by bench/server/spawn-fake-server.ts), so the
// server's CPU and memory are never counted against the client being measured. It answers commands from
// the parent over the IPC channel: admin actions the bench needs, request counts, and close.
import type { FakePartnerEquityOptions } from '../../src/testing/index.js';
import { approveSpv } from '../../test/helpers/spv-body.js';
import { importTesting } from '../lib/build-sdk.js';
import type { ServerCommand, ServerMessage } from './protocol.js';

const options = JSON.parse(process.argv[2] ?? '{}') as FakePartnerEquityOptions;
const { FakePartnerEquity } = await importTesting();
const fake = new FakePartnerEquity(options);
// The fake's clock is manual (it moves only when told); here it follows real time, as a real server's does,
// so hand-signed assertions (raw-token.ts) and token lifetimes line up with the wall clock.
let last = Date.now();
setInterval(() => {
  const now = Date.now();
  void fake.clock.advance(now - last);
  last = now;
}, 50).unref();
await fake.listen();
const partner = await fake.createPartner();

const send = (message: ServerMessage) => process.send?.(message);

async function handle(command: ServerCommand): Promise<unknown> {
  switch (command.cmd) {
    case 'approveSpvRequest':
      return approveSpv(fake, command.slug);
    case 'counts':
      return { requests: fake.requests.length, tokenRequests: fake.tokenRequests.length };
    case 'clearLog':
      // The fake keeps every request for test assertions; a bench sends hundreds of thousands, and a log
      // growing without end would make the server's GC pauses grow over the run. Emptied between segments.
      (fake.requests as unknown[]).length = 0;
      return null;
    case 'close':
      await fake.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (message: { id: number; command: ServerCommand }) => {
  handle(message.command).then(
    (result) => send({ type: 'reply', id: message.id, result }),
    (error: unknown) =>
      send({ type: 'reply', id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
// The parent died without saying close: do not linger.
process.on('disconnect', () => process.exit(0));

// A plain copy: the credentials object's own toJSON hides the private key, and IPC serialises as JSON.
send({ type: 'ready', baseUrl: fake.baseUrl, partner: { ...partner } });
