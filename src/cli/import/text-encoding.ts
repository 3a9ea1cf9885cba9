import { open } from 'node:fs/promises';
import { UsageError } from '../usage-error.js';

/** The text encodings a file is read in: UTF-8 unless a BOM or `--encoding` says otherwise. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

// What people call them (`latin1` and ISO-8859-1 are read as Windows-1252, as browsers do).
const ENCODING_NAMES: Readonly<Record<string, TextEncoding>> = {
  utf8: 'utf-8',
  utf16le: 'utf-16le',
  utf16be: 'utf-16be',
  utf16: 'utf-16le',
  windows1252: 'windows-1252',
  cp1252: 'windows-1252',
  latin1: 'windows-1252',
  iso88591: 'windows-1252',
};

/** `--encoding`'s value, checked; `undefined` to read UTF-8 (or what a BOM says). */
export function encodingOption(value: string | undefined): TextEncoding | undefined {
  if (value === undefined) return undefined;
  const encoding = ENCODING_NAMES[value.toLowerCase().replace(/[^a-z0-9]/g, '')];
  if (encoding === undefined) {
    throw new UsageError(`--encoding '${value}': expected utf-8, utf-16le, utf-16be or windows-1252`);
  }
  return encoding;
}

/** What the first bytes of a file say it is. */
export type FileShape =
  | { kind: 'text'; encoding: TextEncoding; bomBytes: number }
  | { kind: 'xlsx' }
  | { kind: 'xls' };

/**
 * The file's shape from its first bytes: a zip (`PK\x03\x04`, an `.xlsx` whatever its name), an Excel
 * 97-2003 workbook, or text whose BOM names its encoding (a BOM outranks `--encoding`).
 */
export function fileShape(head: Uint8Array, encoding: TextEncoding | undefined): FileShape {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x50, 0x4b, 0x03, 0x04)) return { kind: 'xlsx' };
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return { kind: 'xls' };
  if (starts(0xef, 0xbb, 0xbf)) return { kind: 'text', encoding: 'utf-8', bomBytes: 3 };
  if (starts(0xff, 0xfe)) return { kind: 'text', encoding: 'utf-16le', bomBytes: 2 };
  if (starts(0xfe, 0xff)) return { kind: 'text', encoding: 'utf-16be', bomBytes: 2 };
  return { kind: 'text', encoding: encoding ?? 'utf-8', bomBytes: 0 };
}

/** The first 64 KiB of a file. */
export async function fileHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(64 * 1024) });
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** A text file's encoding, its BOM's length and its first characters (to find the delimiter in). */
export interface TextStart {
  encoding: TextEncoding;
  bomBytes: number;
  sample: string;
}

/** How a text file starts: read once, before csv-parse streams it. */
export async function textStart(path: string, encoding: TextEncoding | undefined): Promise<TextStart> {
  const head = await fileHead(path);
  const shape = fileShape(head, encoding);
  const text = shape.kind === 'text' ? shape : { encoding: encoding ?? 'utf-8', bomBytes: 0 };
  const sample = new TextDecoder(text.encoding).decode(head.subarray(text.bomBytes));
  return { ...text, sample };
}
