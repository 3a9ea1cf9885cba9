// `prepublishOnly`: refuses `npm publish` while package.json still points at the placeholder repository
// (see CONTRIBUTING.md, "Releasing"): a published package whose links lead nowhere cannot be taken back.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const placeholders = ['repository', 'homepage', 'bugs'].filter((field) =>
  JSON.stringify(pkg[field] ?? '').includes('placeholder-owner'),
);
if (placeholders.length > 0) {
  console.error(
    `package.json: ${placeholders.join(', ')} still point at the placeholder repository; set the real one first.`,
  );
  process.exit(1);
}
