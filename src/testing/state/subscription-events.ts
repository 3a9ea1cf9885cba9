import type { FakeServices } from '../services.js';
import type { SubscriptionRecord } from './records.js';
import { iso } from './resources.js';

/** Emits `subscription.completed` once per subscription (admin action or reconciler, whichever is first). */
export function emitSubscriptionCompleted(services: FakeServices, subscription: SubscriptionRecord): void {
  if (subscription.completedEventEmitted) return;
  subscription.completedEventEmitted = true;
  const person = services.state.persons.get(subscription.personId);
  services.emit('subscription.completed', subscription.clientId, {
    subscriptionSlug: subscription.slug,
    spvSlug: subscription.spvSlug,
    personId: subscription.personId,
    status: subscription.status,
    completedAt: iso(subscription.completedAt ?? services.now()),
    ...(person?.partnerInvestorId === undefined ? {} : { partnerInvestorId: person.partnerInvestorId }),
    ...(subscription.partnerSubscriptionId === undefined
      ? {}
      : { partnerSubscriptionId: subscription.partnerSubscriptionId }),
  });
}
