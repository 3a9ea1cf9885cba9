// tsup 9 calls `require('typescript').parseJsonConfigFileContent` itself before its dts plugin falls back
// to `@typescript/typescript6`; TypeScript 7 ships no compiler API, so that call fails. Preloaded for
// `npm run build` only, this points tsup's own `typescript` requests at the TypeScript 6 compiler API.
// The project's typecheck still runs on TypeScript 7.
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (
    request === 'typescript' &&
    parent?.filename?.includes(`${require('node:path').sep}tsup${require('node:path').sep}`)
  ) {
    return resolve.call(this, '@typescript/typescript6', parent, ...rest);
  }
  return resolve.call(this, request, parent, ...rest);
};
