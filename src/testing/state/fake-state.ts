import type { PersonRecord, SpvRecord, SpvRequestRecord, StoredFile, SubscriptionRecord } from './records.js';

// Persons also indexed by (client, partnerInvestorId), kept in step by `set`, so a 25,000-row import stays
// linear instead of scanning every person for every row.
class PersonMap extends Map<string, PersonRecord> {
  readonly byPartnerId = new Map<string, PersonRecord>();

  override set(id: string, person: PersonRecord): this {
    if (person.partnerInvestorId !== undefined) {
      this.byPartnerId.set(JSON.stringify([person.clientId, person.partnerInvestorId]), person);
    }
    return super.set(id, person);
  }
}

/**
 * Everything the fake service holds, in memory. Reads by partners go through the `…For(clientId, …)`
 * helpers, which is where `client_id` scoping lives: another client's record reads as "not found".
 */
export class FakeState {
  readonly spvRequests = new Map<string, SpvRequestRecord>();
  readonly spvs = new Map<string, SpvRecord>();
  readonly persons = new PersonMap();
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
    return this.persons.byPartnerId.get(JSON.stringify([clientId, partnerInvestorId]));
  }

  /** Subscriptions of one person in one SPV, oldest first. */
  subscriptionsOf(spvSlug: string, personId: string): SubscriptionRecord[] {
    return [...this.subscriptions.values()].filter((s) => s.spvSlug === spvSlug && s.personId === personId);
  }
}
