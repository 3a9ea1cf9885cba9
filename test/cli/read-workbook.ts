import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';

const entity = (text: string) =>
  text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : name === 'apos' ? "'" : '&',
  );

/**
 * The first sheet of an `.xlsx` file as rows of text, read with a plain unzip (fflate, which the workbook
 * writer brings): shared and inline strings and plain values; enough to check what the CLI wrote.
 */
export async function readWorkbook(path: string): Promise<string[][]> {
  const files = unzipSync(new Uint8Array(await readFile(path)));
  const xml = (name: string) => (files[name] === undefined ? '' : strFromU8(files[name]));
  const shared = [...xml('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((si) =>
    entity([...(si[1] ?? '').matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')),
  );
  const sheet = xml('xl/worksheets/sheet1.xml');
  return [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)].map((c) => {
      const type = /t="(\w+)"/.exec(c[1] ?? '')?.[1];
      const value = /<v>([\s\S]*?)<\/v>/.exec(c[2] ?? '')?.[1] ?? '';
      if (type === 's') return shared[Number(value)] ?? '';
      if (type === 'inlineStr') return entity(/<t[^>]*>([\s\S]*?)<\/t>/.exec(c[2] ?? '')?.[1] ?? '');
      return entity(value);
    }),
  );
}
