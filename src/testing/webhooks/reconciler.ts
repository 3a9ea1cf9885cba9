import type { ManualClock } from '../manual-clock.js';
import type { SubscriptionRecord } from '../state/records.js';

/**
 * The spec's reconciler: every `intervalMs` of the fake's clock it emits `subscription.completed` for each
 * completed subscription whose immediate emit was skipped. Returns a function that stops it.
 */
export function startReconciler(
  clock: ManualClock,
  intervalMs: number,
  sweep: () => Iterable<SubscriptionRecord>,
  emit: (subscription: SubscriptionRecord) => void,
): () => void {
  let cancel: () => void = () => undefined;
  const tick = () => {
    for (const subscription of sweep()) {
      if (subscription.status === 'completed' && !subscription.completedEventEmitted) emit(subscription);
    }
    cancel = clock.schedule(intervalMs, tick);
  };
  cancel = clock.schedule(intervalMs, tick);
  return () => cancel();
}
