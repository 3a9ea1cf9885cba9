import { chmod, open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CommandError } from './usage-error.js';

/**
 * Writes a secret (a private key) readable by its owner only (mode 0600). Refuses to replace an existing
 * file unless `overwrite` is set: overwriting a registered private key locks the partner out.
 * Resolves to the absolute path written.
 */
export async function writeSecretFile(path: string, contents: string, overwrite: boolean): Promise<string> {
  const absolute = resolve(path);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // 'wx' creates or fails; the mode applies on creation. An overwritten file is chmod-ed below.
    handle = await open(absolute, overwrite ? 'w' : 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CommandError(`${path} already exists; pass --force to overwrite it`);
    }
    throw error;
  }
  try {
    await handle.chmod(0o600);
    await handle.writeFile(contents, 'utf8');
  } finally {
    await handle.close();
  }
  await chmod(absolute, 0o600);
  return absolute;
}
