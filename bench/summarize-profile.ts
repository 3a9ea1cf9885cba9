// Prints the hottest functions of the newest .cpuprofile in a directory (default .bench-tmp/profiles):
// by self time, then by inclusive time for the SDK's own bundle. Usage: tsx bench/summarize-profile.ts [dir]
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { summarizeInclusive, summarizeProfile } from './lib/cpu-profile-summary.js';

const dir = process.argv[2] ?? '.bench-tmp/profiles';
const files = (await readdir(dir))
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(dir, name));
if (files.length === 0) {
  console.error(`No .cpuprofile in ${dir}`);
  process.exit(1);
}
const times = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
const newest = files[times.indexOf(Math.max(...times))]!;
const show = (title: string, lines: Awaited<ReturnType<typeof summarizeProfile>>) => {
  console.log(`\n${title}\n  self%  total%  function`);
  for (const line of lines) {
    console.log(
      `  ${line.selfPercent.toFixed(1).padStart(5)}  ${line.totalPercent.toFixed(1).padStart(6)}  ${line.frame}`,
    );
  }
};
console.log(newest);
show('By self time', await summarizeProfile(newest, 35));
show('SDK bundle by inclusive time', await summarizeInclusive(newest, 30, 'dist/'));
