/**
 * A header or field name reduced to what people mean by it: lower case, letters and digits only, so
 * `E-mail`, `e mail` and `EMAIL` are one name, and `Date of birth` is the field `dateOfBirth`.
 */
export function headerKey(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Common English column names (as {@link headerKey}s) of each field, beside the field names themselves.
 * A name two fields could claim is left out, so a match is never a guess.
 */
export const COMMON_HEADER_NAMES: Readonly<Record<'investors' | 'subscriptions', Record<string, string>>> = {
  investors: {
    investorid: 'partnerInvestorId',
    email: 'email',
    emailaddress: 'email',
    mail: 'email',
    firstname: 'firstName',
    givenname: 'firstName',
    forename: 'firstName',
    lastname: 'lastName',
    surname: 'lastName',
    familyname: 'lastName',
    dob: 'dateOfBirth',
    birthdate: 'dateOfBirth',
    dateofbirth: 'dateOfBirth',
    country: 'countryOfResidence',
    countryofresidence: 'countryOfResidence',
    residence: 'countryOfResidence',
  },
  subscriptions: {
    investorid: 'partnerInvestorId',
    personid: 'servicePersonId',
    person: 'servicePersonId',
    serviceperson: 'servicePersonId',
    shareclass: 'shareClassSlug',
    class: 'shareClassSlug',
    currency: 'lumpSum.currency',
    amount: 'lumpSum.value',
    lumpsum: 'lumpSum.value',
    value: 'lumpSum.value',
    yourreference: 'partnerSubscriptionId',
    reference: 'partnerSubscriptionId',
    subscriptionid: 'partnerSubscriptionId',
  },
};

/** The fields whose names (or common names) are nearest to `name`: at most three, nearest first. */
export function closestFields(name: string, names: ReadonlyMap<string, string>): string[] {
  const key = headerKey(name);
  const scored = new Map<string, number>();
  for (const [candidate, field] of names) {
    const distance = editDistance(key, candidate) / Math.max(key.length, candidate.length, 1);
    const contains = key !== '' && (candidate.includes(key) || key.includes(candidate)) ? 0.25 : 1;
    const score = Math.min(distance, contains);
    if (score < (scored.get(field) ?? Number.POSITIVE_INFINITY)) scored.set(field, score);
  }
  return [...scored]
    .filter(([, score]) => score <= 0.6)
    .sort((a, b) => a[1] - b[1])
    .slice(0, 3)
    .map(([field]) => field);
}

/** Levenshtein distance: the edits that turn one name into the other. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
