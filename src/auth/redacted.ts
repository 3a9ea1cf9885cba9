import { inspect } from 'node:util';

/**
 * How objects that hold secrets print: their class name and a few harmless facts. Objects holding keys or
 * tokens return this from their `util.inspect` hook so a `console.log(client)` never shows a secret. The hook is
 * keyed `[Symbol.for('nodejs.util.inspect.custom')]` written out in each class, which keeps it out of the
 * published declarations (a shared `unique symbol` would be a private type every `.d.ts` chunk references).
 */
export function describeRedacted(name: string, facts: Record<string, unknown>): string {
  return `${name} ${inspect(facts, { breakLength: Number.POSITIVE_INFINITY })}`;
}
