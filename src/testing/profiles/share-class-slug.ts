import { randomId } from '../ids.js';

/** The default profile's share class slug: the slugified name (`Class A` → `class-a`), numbered when taken. */
export function slugifiedShareClass(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'class';
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

/** The alternate profile's share class slug: an opaque id (`shc_…`) unrelated to the name. */
export function opaqueShareClass(_name: string, taken: Set<string>): string {
  const slug = randomId('shc');
  taken.add(slug);
  return slug;
}
