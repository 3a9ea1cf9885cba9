import { context, type SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** An in-memory tracer provider, AsyncLocalStorage context for the file, spans reset after each test. */
export function useTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(() => {
    context.disable();
  });
  afterEach(() => exporter.reset());

  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  return {
    provider,
    exporter,
    spans,
    /** Finished spans named `name`, in the order they ended. */
    named: (name: string, kind?: SpanKind) =>
      spans().filter((span) => span.name === name && (kind === undefined || span.kind === kind)),
  };
}

/** The span's parent span id, or `undefined` for a root span. */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** Everything a span exports that could carry text: name, attributes, events, links, status. */
export const exportedText = (span: ReadableSpan): string =>
  JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    links: span.links.map((link) => ({ context: link.context, attributes: link.attributes })),
    status: span.status,
  });
