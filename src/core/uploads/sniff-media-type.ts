import type { UploadMediaType } from '../../schemas/uploads.js';

/** How many leading bytes {@link sniffMediaType} needs to decide (WEBP's `RIFF....WEBP` is the longest). */
export const SNIFF_BYTES = 12;

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const signatures: readonly { type: UploadMediaType; bytes: readonly number[] }[] = [
  { type: 'application/pdf', bytes: ascii('%PDF-') },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

/**
 * The upload media type the first bytes of a file really are (by magic number, whatever its name or
 * declared type says): PDF, JPEG, PNG or WEBP, else `undefined`.
 */
export function sniffMediaType(head: Uint8Array): UploadMediaType | undefined {
  for (const signature of signatures) if (startsWith(head, signature.bytes)) return signature.type;
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}
