// `prepublishOnly`: refuses `npm publish` while package.json, the README or a guide in docs/ still points
// at the placeholder repository (see CONTRIBUTING.md, "Releasing"): a published package whose links lead
// nowhere cannot be taken back.
import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const placeholders = ['repository', 'homepage', 'bugs'].filter((field) =>
  JSON.stringify(pkg[field] ?? '').includes('placeholder-owner'),
);
const docs = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].filter((path) => readFileSync(new URL(path, root), 'utf8').includes('placeholder-owner'));
if (placeholders.length > 0 || docs.length > 0) {
  console.error(
    `${[...placeholders.map((field) => `package.json ${field}`), ...docs].join(', ')} still point at the placeholder repository; set the real one first.`,
  );
  process.exit(1);
}
