// One contender of the request-overhead scenario (request-overhead.ts) in a process of its own (see
// contender-process.ts): `perSegment` GETs of one SPV request at `concurrency` in flight.
import { Agent, request } from 'undici';
import { SpvRequest } from '../../src/schemas/spv-requests.js';
import { importSdk } from '../lib/build-sdk.js';
import { type ServedContender, serveContender } from '../lib/contender-process.js';
import { pool } from '../lib/interleave.js';

/** The contenders, as request-overhead.ts (and, for the traced ones, tracing-overhead.ts) describe them. */
export type RequestOverheadMode =
  | 'sdk'
  | 'sdk off'
  | 'minimal validated'
  | 'raw undici'
  | 'fetch'
  | 'sdk otel no provider'
  | 'sdk traced';

/** What request-overhead.ts starts a contender with. */
export interface RequestOverheadSetup {
  mode: RequestOverheadMode;
  /** The server asked (the fake or the replay server). */
  baseUrl: string;
  /** The SDK's credentials (its token comes from `baseUrl`). */
  partner: { clientId: string; issuer: string; privateKey: string };
  /** The hand-written clients' bearer token. */
  token: string;
  slug: string;
  perSegment: number;
  concurrency: number;
  /** Untimed GETs before the contender reports ready (token, connection, JIT), instead of a whole segment. */
  warmUp?: number;
}

async function contender(setup: RequestOverheadSetup): Promise<ServedContender> {
  const { mode, baseUrl, slug, perSegment, concurrency } = setup;
  const path = `/v1/spv-requests/${encodeURIComponent(slug)}`;
  const url = new URL(path, baseUrl);
  const authorization = `Bearer ${setup.token}`;
  const expectSlug = (body: { spvRequestSlug?: unknown }) => {
    if (body.spvRequestSlug !== slug) throw new Error('wrong SPV request');
  };
  const served = async (call: () => Promise<void>, close: () => Promise<void>): Promise<ServedContender> => {
    await pool(setup.warmUp ?? 0, concurrency, call);
    return { segment: () => pool(perSegment, concurrency, call), close };
  };
  if (mode === 'sdk otel no provider' || mode === 'sdk traced') await registerOtel(mode === 'sdk traced');
  if (mode === 'sdk' || mode === 'sdk off' || mode === 'sdk otel no provider' || mode === 'sdk traced') {
    const { PartnerEquity } = await importSdk();
    const client = new PartnerEquity({
      ...setup.partner,
      baseUrl,
      ...(mode === 'sdk off' ? { responseValidation: 'off' as const } : {}),
    });
    return served(
      async () => expectSlug(await client.spvRequests.get(slug)),
      () => client.close(),
    );
  }
  if (mode === 'fetch') {
    return served(
      async () => {
        const response = await fetch(url, { headers: { authorization } });
        const body = (await response.json()) as { spvRequestSlug?: unknown };
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        expectSlug(body);
      },
      async () => {},
    );
  }
  const agent = new Agent();
  const close = () => agent.close();
  if (mode === 'raw undici') {
    return served(async () => {
      const response = await request(url, { headers: { authorization }, dispatcher: agent });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
      expectSlug(JSON.parse(text));
    }, close);
  }
  // The floor for a client that validates: what the SDK cannot skip (a URL per call, an abort signal for
  // the timeout, the response schema parsed once), nothing else.
  return served(async () => {
    const controller = new AbortController();
    const response = await request(new URL(path, baseUrl), {
      headers: { authorization },
      dispatcher: agent,
      signal: controller.signal,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
    const parsed = SpvRequest.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error('response does not match the schema');
    expectSlug(parsed.data);
  }, close);
}

/**
 * A partner's OpenTelemetry setup: the AsyncLocalStorage context manager, and with `provider` a global
 * tracer provider whose batch processor hands spans to an exporter that drops them (the SDK's own cost,
 * not an exporter's). Without it, the API is present but no tracer provider is registered.
 */
async function registerOtel(provider: boolean): Promise<void> {
  const { context, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (!provider) return;
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const dropAll = {
    export: (_spans: unknown, done: (result: { code: 0 }) => void) => done({ code: 0 }),
    shutdown: async () => {},
  };
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropAll)] }),
  );
}

await serveContender<RequestOverheadSetup>(contender);
