import { type ChildProcess, fork } from 'node:child_process';
import {
  type Contender,
  type ContenderResult,
  type InterleaveHooks,
  interleave,
  type Segment,
} from './interleave.js';

// A contender in a Node process of its own, driven over IPC by the scenario's process. In one shared process
// each contender paid for garbage collections brought about by the others' garbage, unevenly (see the bulk
// scenario's note); a process per contender charges each the collections it causes, wherever they fall.

/** Messages from the scenario to a contender process. */
type Command = { type: 'segment' } | { type: 'close' };
/** Messages from a contender process to the scenario. */
type Reply = { type: 'ready' } | { type: 'segment'; segment: Segment } | { type: 'error'; error: string };

const SETUP_VARIABLE = 'PE_BENCH_CONTENDER';

/** A {@link Contender} whose segments run in a child process; `close()` ends the process. */
export interface ContenderProcess extends Contender {
  close(): Promise<void>;
}

/**
 * Forks `script` (which calls {@link serveContender}) with `setup` and resolves once it is ready. Each
 * `segment()` runs one segment there and resolves with the child's own measurement.
 */
export function startContenderProcess(
  name: string,
  script: string,
  setup: unknown,
): Promise<ContenderProcess> {
  const child: ChildProcess = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [SETUP_VARIABLE]: JSON.stringify(setup) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { resolve: (segment: Segment) => void; reject: (error: Error) => void } | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      reject(error);
      waiting?.reject(error);
      waiting = undefined;
    };
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`contender ${name} exited (code ${code})`)));
    const send = (command: Command) => child.send(command);
    child.on('message', (reply: Reply) => {
      if (reply.type === 'error') fail(new Error(`contender ${name}: ${reply.error}`));
      else if (reply.type === 'segment') {
        waiting?.resolve(reply.segment);
        waiting = undefined;
      } else
        resolve({
          name,
          segment: () =>
            new Promise<Segment>((resolveSegment, rejectSegment) => {
              waiting = { resolve: resolveSegment, reject: rejectSegment };
              send({ type: 'segment' });
            }),
          close: async () => {
            if (child.exitCode !== null || child.signalCode !== null) return;
            if (child.connected) send({ type: 'close' });
            else child.kill();
            await exited;
          },
        });
    });
  });
}

/**
 * {@link interleave} in `sets` fresh sets of contender processes, every set's results in order. `start` starts
 * one set into the array it is given, one process at a time (so a failed start still closes the others); each
 * set is closed after its rounds. A Node process settles into one of V8's steady states for its
 * whole life, cheap or costly to collect (bench findings, "GC modes"), so the ratio between two processes
 * moves with where each settled: a figure judged on the median over sets rests on several draws, not one.
 */
export async function interleaveInSets(
  sets: number,
  start: (children: ContenderProcess[]) => Promise<void>,
  rounds: number,
  hooks: InterleaveHooks = {},
): Promise<ContenderResult[][]> {
  const results: ContenderResult[][] = [];
  for (let set = 0; set < sets; set++) {
    const children: ContenderProcess[] = [];
    try {
      await start(children);
      results.push(await interleave(children, rounds, hooks));
    } finally {
      await Promise.all(children.map((child) => child.close()));
    }
  }
  return results;
}

/** One contender as its process runs it: a segment resolves with the operations it completed. */
export interface ServedContender {
  segment(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The child side of {@link startContenderProcess}: makes the contender from the setup it was started with,
 * then answers each segment request with its operations, wall time and this process's CPU from the end of
 * its previous segment to the end of this one (so work V8 left for later, such as a collection finished
 * while another contender ran, is charged to the process that caused it). Warm-ups are segments too:
 * {@link interleave} runs them and discards their figures.
 */
export async function serveContender<Setup>(make: (setup: Setup) => Promise<ServedContender>): Promise<void> {
  const reply = (message: Reply) => process.send?.(message);
  try {
    const contender = await make(JSON.parse(process.env[SETUP_VARIABLE] ?? '{}') as Setup);
    let cpu = process.cpuUsage();
    process.on('message', (command: Command) => {
      if (command.type === 'close') {
        void contender.close().finally(() => process.disconnect?.());
        return;
      }
      const start = performance.now();
      contender.segment().then(
        (ops) => {
          const ms = performance.now() - start;
          const now = process.cpuUsage();
          const cpuMs = (now.user - cpu.user + now.system - cpu.system) / 1000;
          cpu = now;
          reply({ type: 'segment', segment: { ops, ms, cpuMs } });
        },
        (error: unknown) => reply({ type: 'error', error: String(error) }),
      );
    });
    reply({ type: 'ready' });
  } catch (error) {
    reply({ type: 'error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.disconnect?.();
  }
}
