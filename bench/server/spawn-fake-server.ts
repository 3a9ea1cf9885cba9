import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FakePartnerCredentials, FakePartnerEquityOptions } from '../../src/testing/index.js';
import type { ApprovedSpv, ServerCommand, ServerCounts, ServerMessage } from './protocol.js';

const SCRIPT = fileURLToPath(new URL('./fake-server.ts', import.meta.url));

/** A fake API server running in a child process. */
export interface FakeServerProcess {
  baseUrl: string;
  /** A registered, provisioned partner: spread into `new PartnerEquity({ ...partner })`. */
  partner: FakePartnerCredentials;
  /** The server process id (for RSS checks or profiling). */
  pid: number;
  approveSpvRequest(slug: string): Promise<ApprovedSpv>;
  counts(): Promise<ServerCounts>;
  clearLog(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `FakePartnerEquity` (the bench's build of `./testing`) on a loopback port in a separate Node
 * process and resolves once it listens. Close it with `close()`; it also exits if the parent goes away.
 */
export async function spawnFakeServer(options: FakePartnerEquityOptions = {}): Promise<FakeServerProcess> {
  const child: ChildProcess = fork(SCRIPT, [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const ready = new Promise<Extract<ServerMessage, { type: 'ready' }>>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fake server exited early (code ${code})`)));
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'ready') resolve(message);
      else {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(`fake server: ${message.error}`));
        else waiter?.resolve(message.result);
      }
    });
  });
  const call = <T>(command: ServerCommand): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, command });
    });
  const { baseUrl, partner } = await ready;
  return {
    baseUrl,
    partner,
    pid: child.pid ?? 0,
    approveSpvRequest: (slug) => call<ApprovedSpv>({ cmd: 'approveSpvRequest', slug }),
    counts: () => call<ServerCounts>({ cmd: 'counts' }),
    clearLog: () => call<void>({ cmd: 'clearLog' }),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await call({ cmd: 'close' }).catch(() => undefined);
      await exited;
    },
  };
}
