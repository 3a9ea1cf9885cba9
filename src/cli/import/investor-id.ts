import { createHash } from 'node:crypto';
import { UsageError } from '../usage-error.js';

/** What `--id-from` derives `partnerInvestorId` from: only the e-mail address. */
export type IdSource = 'email';

/** `--id-from`'s value, checked. */
export function idFromOption(value: string | undefined): IdSource | undefined {
  if (value === undefined) return undefined;
  if (value.toLowerCase().replace(/[^a-z]/g, '') === 'email') return 'email';
  throw new UsageError(`--id-from '${value}': expected email`);
}

/**
 * The `partnerInvestorId` of an investor known only by an e-mail address: `email-` and the first 24 hex
 * digits (96 bits) of the SHA-256 of the address trimmed, NFC-normalised and in lower case. The same
 * address gives the same id on every run and every machine; the id carries no address (results files and
 * logs show it), and the service already receives the address in the same row.
 */
export function investorIdFromEmail(email: string): string {
  const normalised = email.trim().normalize('NFC').toLowerCase();
  return `email-${createHash('sha256').update(normalised, 'utf8').digest('hex').slice(0, 24)}`;
}
