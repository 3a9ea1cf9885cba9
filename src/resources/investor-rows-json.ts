import { stableJson } from '../core/idempotency.js';
import type { InvestorInput } from '../schemas/investors.js';

const string = JSON.stringify;
const SIX_FIELDS = 6;

/**
 * `stableJson(rows)` for checked investor rows, written field by field in sorted key order for the usual
 * row (the six stated fields, all strings); any other row goes through the generic writer. Same text as
 * `stableJson(rows)` at a fraction of its cost: chunk idempotency keys are hashed from it.
 */
export function investorRowsJson(rows: readonly InvestorInput[]): string {
  let json = '[';
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as InvestorInput;
    if (index > 0) json += ',';
    json += isUsualRow(row)
      ? `{"countryOfResidence":${string(row.countryOfResidence)},"dateOfBirth":${string(row.dateOfBirth)},"email":${string(row.email)},"firstName":${string(row.firstName)},"lastName":${string(row.lastName)},"partnerInvestorId":${string(row.partnerInvestorId)}}`
      : stableJson(row);
  }
  return `${json}]`;
}

function isUsualRow(row: InvestorInput): boolean {
  return (
    typeof row.email === 'string' &&
    typeof row.firstName === 'string' &&
    typeof row.lastName === 'string' &&
    typeof row.dateOfBirth === 'string' &&
    typeof row.countryOfResidence === 'string' &&
    Object.keys(row).length === SIX_FIELDS
  );
}
