import { stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import {
  isMainThread,
  type MessagePort,
  parentPort,
  type ResourceLimits,
  Worker,
  workerData,
} from 'node:worker_threads';
import type { CliIo } from '../command.js';
import { CommandError, UsageError } from '../usage-error.js';
import type { ImportIo, ImportJob } from './import-request.js';
import { MAX_PEOPLE_FILE_BYTES } from './people-file.js';
import { WORKBOOK_HEAP_PER_BYTE, workbookBytes } from './read-records.js';
import { isWorkbookPath } from './results-file.js';

// Why a thread: V8 sizes a heap from the garbage that survives it, not from what stays alive. An import
// keeps little alive (the chunks in flight: a few MB), but every chunk survives a few young-generation
// collections while it fills and while its request is out, and V8 grows the young generation by the bytes
// that survive, summed over the run: a long file ends at Node's largest young generation and a roomy old
// one (about 330 MB of RSS for 400,000 rows and for 1,000,000 alike). A worker thread's heap has limits of
// its own (`resourceLimits`): sized here from the chunk size and the requests in flight, they bound the
// command's memory by design, whatever the file's length.

/**
 * Young generation of the import's thread (MB; V8 makes a third of it each semi-space). Smaller costs CPU:
 * collections come more often and copy the chunks in flight each time.
 */
const YOUNG_MB = 24;
/** Old generation (MB) for the code and the modules, and the bytes a row takes in memory while in flight. */
const OLD_BASE_MB = 48;
const BYTES_PER_ROW_IN_FLIGHT = 4096;
/** A `--people` map holds every investor of that file: about this many times its size on disk. */
const PEOPLE_BYTES_PER_FILE_BYTE = 4;
/** An `.xlsx` results file: its rows as strings, then the workbook's XML and zip. */
const WORKBOOK_BYTES_PER_FILE_BYTE = 12;

/** The heap limits of the import's thread for this job. */
export async function importLimits(job: ImportJob): Promise<ResourceLimits> {
  // The chunks in flight, the one filling, the one being written out, and their request and answer bodies.
  const rows = job.chunkSize * (job.concurrency + 2);
  const people = job.people === undefined ? 0 : Math.min(await fileSize(job.people), MAX_PEOPLE_FILE_BYTES);
  // An `.xlsx` input is read whole (twice: the check, then the import); an `.xlsx` results file is held
  // until the end: every row's cells and outcome, about so many times the input's size.
  const input = await workbookBytes(job.file);
  const results = job.out !== undefined && isWorkbookPath(job.out) ? await fileSize(job.file) : 0;
  const bytes =
    rows * BYTES_PER_ROW_IN_FLIGHT +
    people * PEOPLE_BYTES_PER_FILE_BYTE +
    input * WORKBOOK_HEAP_PER_BYTE +
    results * WORKBOOK_BYTES_PER_FILE_BYTE;
  return {
    maxYoungGenerationSizeMb: YOUNG_MB,
    maxOldGenerationSizeMb: OLD_BASE_MB + Math.ceil(bytes / (1024 * 1024)),
  };
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0; // the import itself reports the unreadable file
  }
}

/** Data of the import's thread. */
interface ThreadData {
  partnerEquityImport: { job: ImportJob; stderrIsTTY: boolean };
}

/** Thread → command. */
type FromThread =
  | { type: 'write'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'done'; status: number }
  | { type: 'error'; usage: boolean; message: string };

/** Command → thread. */
type ToThread = { type: 'written'; stream: 'stdout' | 'stderr' } | { type: 'interrupt'; signal: string };

/**
 * Runs {@link runImportJob} in a worker thread with {@link importLimits}: its output comes back to `io` in
 * order (a write waits for the previous one, so the thread feels the terminal's backpressure) and Ctrl-C
 * is passed on, so the import stops after the chunks in flight as it would in this thread.
 */
export async function runInThread(job: ImportJob, io: CliIo): Promise<number> {
  const data: ThreadData = {
    partnerEquityImport: {
      job,
      stderrIsTTY: (io.stderr as { isTTY?: boolean }).isTTY === true,
    },
  };
  // The worker runs this very module (built, or TypeScript under a loader, as the command was started):
  // its last lines start the import there. A file, not `eval`: Node's `--import` preloads run in it too.
  const worker = new Worker(new URL(import.meta.url), {
    workerData: data,
    resourceLimits: await importLimits(job),
  });
  void io.waitForInterrupt().then((signal) => {
    worker.postMessage({ type: 'interrupt', signal } satisfies ToThread);
  });
  let outcome: { status: number } | { error: Error } | undefined;
  worker.on('message', (message: FromThread) => {
    if (message.type === 'write') {
      const { stream } = message;
      io[stream].write(message.text, () =>
        worker.postMessage({ type: 'written', stream } satisfies ToThread),
      );
    } else if (message.type === 'done') outcome = { status: message.status };
    else {
      outcome = {
        error: message.usage ? new UsageError(message.message) : new CommandError(message.message),
      };
    }
  });
  worker.on('error', (error) => {
    outcome ??= { error: threadError(error) };
  });
  const code = await new Promise<number>((resolve) => worker.once('exit', resolve));
  if (outcome === undefined) throw new CommandError(`the import's thread stopped (exit code ${code})`);
  if ('error' in outcome) throw outcome.error;
  return outcome.status;
}

function threadError(error: Error): Error {
  if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new CommandError(
      `the import ran out of memory (${error.message}); run the same command again with a smaller --chunk-size or --concurrency: chunks already sent are replayed, not created again`,
    );
  }
  return error;
}

/** The thread's side of {@link runInThread}. */
async function importThreadMain(): Promise<void> {
  const port = parentPort as MessagePort;
  const { job, stderrIsTTY } = (workerData as ThreadData).partnerEquityImport;
  const { runImportJob } = await import('./import-job.js');
  let interrupted: (signal: string) => void = () => {};
  const interrupt = new Promise<string>((resolve) => {
    interrupted = resolve;
  });
  // One message out at a time: the next waits for the command's `written`, and what was written meanwhile
  // goes in it as one text (a progress line per chunk is then not a message each).
  const pending = { stdout: [] as (() => void)[], stderr: [] as (() => void)[] };
  const onMessage = (message: ToThread) => {
    if (message.type === 'written') pending[message.stream].shift()?.();
    else interrupted(message.signal);
  };
  port.on('message', onMessage);
  const send = (stream: 'stdout' | 'stderr', text: string, callback: () => void) => {
    pending[stream].push(callback);
    port.postMessage({ type: 'write', stream, text } satisfies FromThread);
  };
  const text = (chunk: string | Buffer) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  const stream = (name: 'stdout' | 'stderr') =>
    new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, callback) {
        send(name, text(chunk), () => callback());
      },
      writev(chunks, callback) {
        send(name, chunks.map(({ chunk }) => text(chunk as string | Buffer)).join(''), () => callback());
      },
    });
  const stdout = stream('stdout');
  const stderr = Object.assign(stream('stderr'), { isTTY: stderrIsTTY });
  const io: ImportIo = { stdout, stderr, waitForInterrupt: () => interrupt };
  let result: FromThread;
  try {
    result = { type: 'done', status: await runImportJob(job, io) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result = { type: 'error', usage: error instanceof UsageError, message };
  }
  await Promise.all([stdout, stderr].map((out) => new Promise((resolve) => out.end(resolve))));
  port.postMessage(result);
  // The last listener gone, the port no longer holds the thread open: it ends once its work has.
  port.off('message', onMessage);
}

// In the import's thread (and only there): start the import.
if (!isMainThread && (workerData as Partial<ThreadData> | null)?.partnerEquityImport !== undefined) {
  void importThreadMain();
}
