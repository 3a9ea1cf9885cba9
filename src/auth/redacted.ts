import { inspect } from 'node:util';

/** The symbol `util.inspect` (and so `console.log`) looks up on an object to print it. */
export const inspectSymbol: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * How objects that hold secrets print: their class name and a few harmless facts. Objects holding keys or
 * tokens return this from their `util.inspect` hook so a `console.log(client)` never shows a secret.
 */
export function describeRedacted(name: string, facts: Record<string, unknown>): string {
  return `${name} ${inspect(facts, { breakLength: Number.POSITIVE_INFINITY })}`;
}
