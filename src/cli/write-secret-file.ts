import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CommandError } from './usage-error.js';

// O_NOFOLLOW is absent on Windows (there the check below, lstat, is what refuses a link).
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/**
 * Writes a secret (a private key, a file of credentials) readable by its owner only: mode 0600, always.
 *
 * - Never through a symbolic link: `path` being a link is refused (with `--force` too), and the file is
 *   opened with `O_EXCL | O_NOFOLLOW`, so a link planted at the last moment fails rather than being followed.
 * - A new file is created with `O_EXCL` (an existing one is refused unless `overwrite`: overwriting a
 *   registered private key locks the partner out).
 * - An existing file is replaced, not rewritten: the secret goes to a new 0600 file in the same directory
 *   that is then renamed over it. The old file's mode, owner and hard links carry nothing over, and a
 *   reader never sees half a key.
 *
 * Resolves to the absolute path written.
 */
export async function writeSecretFile(path: string, contents: string, overwrite: boolean): Promise<string> {
  const absolute = resolve(path);
  const existing = await lstat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing?.isSymbolicLink()) {
    throw new CommandError(`${path} is a symbolic link; refusing to write a secret through it`);
  }
  if (existing !== undefined && !existing.isFile()) {
    throw new CommandError(`${path} exists and is not a regular file`);
  }
  if (existing !== undefined && !overwrite) {
    throw new CommandError(`${path} already exists; pass --force to overwrite it`);
  }
  if (existing === undefined) {
    await writeNew(absolute, contents).catch((error: NodeJS.ErrnoException) => {
      // Created (or linked) by someone else since the check above.
      if (error.code === 'EEXIST' || error.code === 'ELOOP') {
        throw new CommandError(`${path} appeared while writing it; not overwritten`);
      }
      throw error;
    });
    return absolute;
  }
  const temporary = join(dirname(absolute), `.${basename(absolute)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeNew(temporary, contents);
    // rename() replaces the directory entry itself: a link put there meanwhile is replaced, not followed.
    await rename(temporary, absolute);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return absolute;
}

/** Creates `path` (it must not exist; a link there is not followed) with mode 0600 and writes `contents`. */
async function writeNew(path: string, contents: string): Promise<void> {
  const handle: FileHandle = await open(path, CREATE_NEW, 0o600);
  try {
    // The umask may have narrowed the mode at creation; never widened it. Set it exactly.
    await handle.chmod(0o600);
    await handle.writeFile(contents, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
}
