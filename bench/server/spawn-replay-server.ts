import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { CapturedResponse, ReplayConfig } from './protocol.js';

const SCRIPT = fileURLToPath(new URL('./replay-server.ts', import.meta.url));
const SKIPPED = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'date']);

/** A replay server in a child process. */
export interface ReplayServerProcess {
  baseUrl: string;
  /** TCP connections the server has accepted so far. */
  connections(): Promise<number>;
  /** When each route (`METHOD /path`) was last asked for, as epoch milliseconds. */
  arrivals(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** Asks `baseUrl` for `path` with the token and keeps the answer, to replay it. */
export async function capture(baseUrl: string, path: string, token: string): Promise<CapturedResponse> {
  const response = await request(new URL(path, baseUrl), { headers: { authorization: `Bearer ${token}` } });
  const body = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!SKIPPED.has(name) && typeof value === 'string') headers[name] = value;
  }
  return { status: response.statusCode, headers, body };
}

/** Starts bench/server/replay-server.ts in its own process and resolves once it listens. */
export async function spawnReplayServer(config: ReplayConfig): Promise<ReplayServerProcess> {
  const child = fork(SCRIPT, [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`replay server exited early (code ${code})`)));
    child.once('message', (message: { baseUrl: string }) => resolve(message.baseUrl));
  });
  return {
    baseUrl,
    connections: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { connections: number }) => resolve(message.connections));
        child.send({ cmd: 'connections' });
      }),
    arrivals: () =>
      new Promise((resolve) => {
        child.once('message', (message: { arrivals: Record<string, number> }) => resolve(message.arrivals));
        child.send({ cmd: 'arrivals' });
      }),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
