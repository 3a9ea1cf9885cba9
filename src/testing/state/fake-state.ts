import type { PersonRecord, SpvRecord, SpvRequestRecord, StoredFile, SubscriptionRecord } from './records.js';

/**
 * Everything the fake service holds, in memory. Reads by partners go through the `…For(clientId, …)`
 * helpers, which is where `client_id` scoping lives: another client's record reads as "not found".
 */
export class FakeState {
  readonly spvRequests = new Map<string, SpvRequestRecord>();
  readonly spvs = new Map<string, SpvRecord>();
  readonly persons = new Map<string, PersonRecord>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  readonly files = new Map<string, StoredFile>();
  #seq = 0;

  /** A monotonically increasing number, so records made in the same millisecond still sort by creation. */
  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  spvRequestFor(clientId: string, slug: string): SpvRequestRecord | undefined {
    const record = this.spvRequests.get(slug);
    return record?.clientId === clientId ? record : undefined;
  }

  spvFor(clientId: string, slug: string): SpvRecord | undefined {
    const record = this.spvs.get(slug);
    return record?.clientId === clientId ? record : undefined;
  }

  personFor(clientId: string, id: string): PersonRecord | undefined {
    const record = this.persons.get(id);
    return record?.clientId === clientId ? record : undefined;
  }

  personByPartnerId(clientId: string, partnerInvestorId: string): PersonRecord | undefined {
    for (const person of this.persons.values()) {
      if (person.clientId === clientId && person.partnerInvestorId === partnerInvestorId) return person;
    }
    return undefined;
  }

  /** Subscriptions of one person in one SPV, oldest first. */
  subscriptionsOf(spvSlug: string, personId: string): SubscriptionRecord[] {
    return [...this.subscriptions.values()].filter((s) => s.spvSlug === spvSlug && s.personId === personId);
  }
}
