import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assertSupportedNode,
  MINIMUM_NODE_VERSION,
  unsupportedNodeMessage,
} from '../../src/runtime/assert-supported-node.js';

const node = (version: string) => ({ process: { versions: { node: version } } });

describe('the Node.js version check every entry point runs first', () => {
  it('is the floor package.json promises in engines.node', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE_VERSION.replace(/\.0$/, '')}`);
  });

  it('refuses an older Node.js in one line naming the required version and the one found', () => {
    expect(unsupportedNodeMessage(node('20.20.2'))).toBe(
      '@partner-equity/sdk needs Node.js >= 22.19.0; this is Node.js 20.20.2. Upgrade Node.js, or run on Bun or Deno.',
    );
    for (const version of ['22.18.9', '22.0.0', '18.20.8', '21.99.0']) {
      expect(unsupportedNodeMessage(node(version)), version).toContain(`this is Node.js ${version}.`);
    }
    expect(() => assertSupportedNode(node('22.18.0'))).toThrow(
      expect.objectContaining({ code: 'ERR_UNSUPPORTED_NODE', message: expect.stringMatching(/^[^\n]+$/) }),
    );
  });

  it('accepts the floor and everything above it, pre-releases included', () => {
    for (const version of [
      '22.19.0',
      '22.20.1',
      '23.0.0',
      '24.21.0',
      '26.0.0-nightly20260101abc',
      '100.0.0',
    ]) {
      expect(unsupportedNodeMessage(node(version)), version).toBeUndefined();
    }
    expect(() => assertSupportedNode(node('24.0.0'))).not.toThrow();
  });

  it('never judges Bun or Deno by the Node.js version they emulate, nor a runtime without one', () => {
    expect(
      unsupportedNodeMessage({ process: { versions: { node: '20.0.0', bun: '1.4.5' } } }),
    ).toBeUndefined();
    expect(unsupportedNodeMessage({ process: { versions: { node: '20.11.1' } }, Deno: {} })).toBeUndefined();
    expect(unsupportedNodeMessage({})).toBeUndefined();
    expect(unsupportedNodeMessage({ process: { versions: {} } })).toBeUndefined();
  });

  it('passes in the process running this suite', () => {
    expect(unsupportedNodeMessage()).toBeUndefined();
  });
});
