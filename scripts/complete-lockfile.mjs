// Some registries reachable from CI mirror only the packages for this platform, so `npm install`
// writes a lockfile without the other platforms' optional binaries (esbuild, rollup, biome) and
// `npm ci` then refuses it as out of sync. This adds the missing optional entries with the
// platform fields npm uses to skip them, so the lockfile is complete on every machine.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const platform = (name) => {
  const os = [
    'android',
    'darwin',
    'freebsd',
    'linux',
    'openbsd',
    'openharmony',
    'win32',
    'netbsd',
    'sunos',
    'aix',
  ].find((o) => name.includes(`-${o}`));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'].find((c) =>
    new RegExp(`-${c}(-|$)`).test(name),
  );
  const libc = name.includes('-musl') ? ['musl'] : os === 'linux' ? ['glibc'] : undefined;
  return { ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }), ...(libc && { libc }) };
};
let added = 0;
for (const [key, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${dep}`;
    if (packages[at]) continue;
    packages[at] = { version, ...platform(dep), optional: true, ...(entry.dev && { dev: true }) };
    added++;
  }
  void key;
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
