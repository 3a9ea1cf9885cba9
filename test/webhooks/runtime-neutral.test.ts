import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/webhooks');

/** Every module the default entry reaches, following relative imports (type-only ones included). */
function moduleGraph(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    // Comments (JSDoc examples) may mention packages and Buffer; only code counts.
    const source = readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
    seen.set(file, source);
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (specifier!.startsWith('.')) visit(join(dirname(file), specifier!.replace(/\.js$/, '.ts')));
      else seen.set(`external:${specifier}`, '');
    }
  };
  visit(join(root, entry));
  return seen;
}

// The optional tracing peer, imported for its types only (erased from the build): at run time it is loaded
// lazily, through a variable specifier that bundlers leave alone, and only when a tracer provider exists.
const TYPES_ONLY = 'external:@opentelemetry/api';

describe('the default webhooks entry is runtime-neutral', () => {
  it('imports nothing from node: (or any package) and never mentions Buffer or process', () => {
    const graph = moduleGraph('index.ts');
    expect(graph.size).toBeGreaterThan(10);
    const externals = [...graph.keys()].filter((key) => key.startsWith('external:'));
    expect(externals).toEqual([TYPES_ONLY]);
    for (const [file, code] of graph) {
      for (const [line] of code.matchAll(/^(?:import|export)\b.*'@opentelemetry\/api'.*$/gm))
        expect(line, file).toMatch(/^import type /);
    }
    // The string 'process' is the OpenTelemetry messaging operation type, not the Node.js global.
    for (const [file, code] of graph)
      expect(code, file).not.toMatch(/\bBuffer\b|(?<!')\bprocess\b(?!')|node:/);
  });

  it('keeps node:crypto to the node entry', () => {
    const graph = moduleGraph('index.node.ts');
    expect([...graph.keys()].filter((key) => key.startsWith('external:'))).toEqual([
      'external:node:crypto',
      TYPES_ONLY,
    ]);
  });
});
