import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';

/** `export NAME=value` lines of the mock's output. */
const exported = (stdout: string) =>
  Object.fromEntries([...stdout.matchAll(/^export (PE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));

describe('partner-equity mock, exposed (security review of issue 27, findings 4 and 5)', () => {
  it('--host 0.0.0.0: warns, prints a generated admin token and requires it; --allow-host adds a name', async ({
    onTestFinished,
  }) => {
    const mock = startCli(['mock', '--port', '0', '--host', '0.0.0.0', '--allow-host', 'devbox.test']);
    onTestFinished(async () => {
      await mock.stop();
    });
    await mock.waitFor(/^ {2}curl .*\/subscriptions\?limit=0'/m);
    expect(mock.stderr()).toMatch(/^warning: --host 0\.0\.0\.0 serves the fake API beyond this machine/m);
    const token = exported(mock.stdout())['PE_ADMIN_TOKEN']!;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(mock.stderr()).not.toContain(token);
    expect(mock.stdout().split(token)).toHaveLength(2); // printed once, in its export line
    const api = /curl -H "Authorization: Bearer \$PE_ADMIN_TOKEN" (http:\/\/127\.0\.0\.1:\d+\/__admin) /.exec(
      mock.stdout(),
    )![1]!;
    const get = async (headers: Record<string, string>) =>
      (await request(`${api}/settings`, { headers })).statusCode;
    expect(await get({})).toBe(401);
    expect(await get({ authorization: `Bearer ${token}` })).toBe(200);
    const port = new URL(api).port;
    expect(await get({ authorization: `Bearer ${token}`, host: `devbox.test:${port}` })).toBe(200);
    expect(await get({ authorization: `Bearer ${token}`, host: `other.test:${port}` })).toBe(403);
  });

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
