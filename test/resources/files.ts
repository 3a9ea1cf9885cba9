import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Magic bytes of each kind of file the tests upload. */
export const MAGIC = {
  pdf: ascii('%PDF-1.7\n'),
  jpeg: [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii('JFIF')],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  webp: [...ascii('RIFF'), 0x24, 0x00, 0x00, 0x00, ...ascii('WEBPVP8 ')],
  gif: ascii('GIF89a'),
} as const;

/** `size` bytes starting with `kind`'s magic bytes, the rest a repeating pattern. */
export function fileBytes(kind: keyof typeof MAGIC, size = 4096): Buffer<ArrayBuffer> {
  const bytes = Buffer.alloc(size, 0x2e) as Buffer<ArrayBuffer>;
  Buffer.from(MAGIC[kind]).copy(bytes, 0);
  for (let i = MAGIC[kind].length; i < size; i += 997) bytes[i] = i % 251;
  return bytes;
}

/** A temporary folder for the test's files, removed after each test. */
export function useTempDir(): { write(name: string, bytes: Uint8Array): Promise<string> } {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return {
    async write(name, bytes) {
      dir ??= await mkdtemp(join(tmpdir(), 'pe-upload-test-'));
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    },
  };
}

/**
 * Gives this test file a temp directory of its own (`TMPDIR`, which `os.tmpdir()` reads on each call), so
 * `spoolDirs()` sees only the spool folders of this file's uploads, not those of test files or processes
 * running beside it. Each vitest worker thread has its own copy of `process.env`.
 */
export function usePrivateTmpdir(): void {
  const saved = process.env.TMPDIR;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pe-tmpdir-'));
    process.env.TMPDIR = dir;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
}

/** The SDK's own spool folders currently in the temp directory. */
export async function spoolDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('partner-equity-upload-'));
}

/** A generator stream that counts how many bytes were pulled from it. */
export function countingStream(chunks: number, chunkSize: number, first: readonly number[]) {
  const state = { pulled: 0 };
  async function* generate() {
    for (let i = 0; i < chunks; i++) {
      const chunk = Buffer.alloc(chunkSize, 0x2e);
      if (i === 0) Buffer.from(first).copy(chunk, 0);
      state.pulled += chunk.byteLength;
      yield chunk;
    }
  }
  return { stream: generate(), state };
}
