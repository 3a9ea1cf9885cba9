import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';

/** `export NAME=value` lines of the mock's output. */
const exported = (stdout: string) =>
  Object.fromEntries([...stdout.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));

describe('partner-equity mock, exposed (security review of issue 27)', () => {
  it("a hostile --client-id writes nothing outside the mock's own temp directory", async ({
    onTestFinished,
  }) => {
    const root = await mkdtemp(join(tmpdir(), 'pe-mock-keyfile-'));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    await mkdir(join(root, 'victim'));
    await writeFile(join(root, 'victim', 'notes.pem'), 'my notes\n');
    const mock = startCli(['mock', '--port', '0', '--client-id', 'x/../victim/notes'], {
      env: { TMPDIR: root },
    });
    await mock.waitFor(/^export PE_PRIVATE_KEY_FILE=/m);
    const keyFile = exported(mock.stdout())['PE_PRIVATE_KEY_FILE']!;
    expect(keyFile).toMatch(new RegExp(`^${root}/partner-equity-mock-\\w+/partner\\.pem$`));
    expect(await readFile(keyFile, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await readFile(join(root, 'victim', 'notes.pem'), 'utf8')).toBe('my notes\n');
    expect(await mock.stop()).toBe(0);
    expect(await readFile(join(root, 'victim', 'notes.pem'), 'utf8')).toBe('my notes\n');
    // Its own directory went with it (tsx-*: the TypeScript loader's cache of the command under test).
    expect((await readdir(root)).filter((name) => !name.startsWith('tsx-'))).toEqual(['victim']);
  });
});
