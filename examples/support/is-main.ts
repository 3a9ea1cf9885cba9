import { pathToFileURL } from 'node:url';

/** Whether the module at `moduleUrl` is the script being run (`tsx file.ts`), not one imported by a test. */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(script).href === moduleUrl;
}
