// Makes a missing msw one line with its fix. `@partner-equity/sdk/testing` imports msw statically, and a
// missing package fails an ES module graph while it is linked, before any of its code runs, with Node's bare
// "Cannot find package 'msw'". So the built entry is moved aside (`fake-api.*`) and replaced by a small
// wrapper that loads it dynamically, turns that failure into the install command, and re-exports the same
// names. The declarations (`index.d.ts`) are untouched: the names and types do not change.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a partner without msw reads. */
export const MSW_MISSING =
  '@partner-equity/sdk/testing needs the optional peer dependency msw (3.x): npm install --save-dev msw';

const isMissingMsw = `(error) => /^(ERR_)?MODULE_NOT_FOUND$/.test(error?.code) && /'msw(\\/[^']*)?'/.test(String(error?.message))`;

async function moveAside(dir: string, extension: 'js' | 'cjs'): Promise<string> {
  const from = join(dir, `index.${extension}`);
  const code = await readFile(from, 'utf8');
  await writeFile(
    join(dir, `fake-api.${extension}`),
    code.replaceAll(`sourceMappingURL=index.${extension}.map`, `sourceMappingURL=fake-api.${extension}.map`),
  );
  await rename(`${from}.map`, join(dir, `fake-api.${extension}.map`));
  return code;
}

/** Wraps `dist/testing/index.{js,cjs}` (run after tsup has written them). */
export async function wrapTestingEntry(outDir: string): Promise<void> {
  const dir = join(outDir, 'testing');
  const esm = await moveAside(dir, 'js');
  await moveAside(dir, 'cjs');
  const list = /export \{([^}]*)\};\s*(?:\/\/# sourceMappingURL=\S+\s*)*$/.exec(esm)?.[1];
  if (list === undefined)
    throw new Error('wrap-testing-entry: no export list at the end of testing/index.js');
  const names = list
    .split(',')
    .map(
      (item) =>
        item
          .trim()
          .split(/\s+as\s+/)
          .at(-1)!,
    )
    .filter(Boolean);
  const message = JSON.stringify(MSW_MISSING);
  await writeFile(
    join(dir, 'index.js'),
    `import '../runtime/check-node.js';
// Loaded dynamically so that a missing msw ends in one line naming the install command.
const isMissingMsw = ${isMissingMsw};
const api = await import('./fake-api.js').catch((error) => {
  throw isMissingMsw(error) ? Object.assign(new Error(${message}, { cause: error }), { code: 'ERR_MSW_MISSING' }) : error;
});
export const { ${names.join(', ')} } = api;
`,
  );
  await writeFile(
    join(dir, 'index.cjs'),
    `'use strict';
require('../runtime/check-node.cjs');
// Loaded in a try so that a missing msw ends in one line naming the install command.
const isMissingMsw = ${isMissingMsw};
try {
  module.exports = require('./fake-api.cjs');
} catch (error) {
  throw isMissingMsw(error) ? Object.assign(new Error(${message}, { cause: error }), { code: 'ERR_MSW_MISSING' }) : error;
}
`,
  );
}
