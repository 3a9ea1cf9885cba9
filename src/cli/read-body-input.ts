import { readFile } from 'node:fs/promises';
import type { CliIo, OptionSpec, OptionValues } from './command.js';
import { stringValue } from './parse-options.js';
import { UsageError } from './usage-error.js';

/** The `--body` / `--body-file` options shared by the webhook commands. */
export const bodyOptions: Record<'body' | 'body-file', OptionSpec> = {
  body: { type: 'string', valueName: '<text>', description: 'The raw body, as given' },
  'body-file': {
    type: 'string',
    valueName: '<file>',
    description: "File holding the raw body ('-' for stdin; stdin is the default)",
  },
};

/**
 * The exact body bytes to sign or verify: `--body`, `--body-file`, or stdin. Never trimmed or re-encoded —
 * one changed byte (a trailing newline) changes the signature.
 */
export async function readBodyInput(values: OptionValues, io: CliIo): Promise<Uint8Array> {
  const text = stringValue(values, 'body');
  const file = stringValue(values, 'body-file');
  if (text !== undefined && file !== undefined) throw new UsageError('give --body or --body-file, not both');
  if (text !== undefined) return new TextEncoder().encode(text);
  if (file !== undefined && file !== '-') return new Uint8Array(await readFile(file));
  if (file === undefined && io.stdin.isTTY) {
    throw new UsageError('no body: pass --body-file <file> or --body <text>, or pipe the body on stdin');
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return new Uint8Array(Buffer.concat(chunks));
}
