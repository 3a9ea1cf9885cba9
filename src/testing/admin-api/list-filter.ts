import type {
  DeliveryListFilter,
  PersonListFilter,
  SpvRequestListFilter,
  SubscriptionListFilter,
} from '../admin-lists.js';

/** Bad input to the admin API or the mock's console: the message names each bad parameter. */
export class AdminInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminInputError';
  }
}

/** The filter parameters each admin list takes, by name (as query parameters and console `name=value`). */
export const LIST_PARAMETERS = {
  spvRequests: ['status', 'clientId', 'templateId', 'limit', 'offset'],
  subscriptions: ['status', 'clientId', 'spvSlug', 'personId', 'limit', 'offset'],
  persons: ['clientId', 'partnerInvestorId', 'email', 'limit', 'offset'],
  deliveries: ['status', 'eventType', 'limit', 'offset'],
} as const;

type Kind = keyof typeof LIST_PARAMETERS;
interface Filters {
  spvRequests: SpvRequestListFilter;
  subscriptions: SubscriptionListFilter;
  persons: PersonListFilter;
  deliveries: DeliveryListFilter;
}
type Filter<K extends Kind> = Filters[K];

/**
 * A list filter from `name=value` pairs (a URL's query, or the words after a console command). `status`
 * may repeat or hold a comma-separated list; `limit` and `offset` are whole numbers. Every unknown name and
 * bad number is named in one {@link AdminInputError}.
 */
export function parseListFilter<K extends Kind>(kind: K, pairs: Iterable<[string, string]>): Filter<K> {
  const allowed: readonly string[] = LIST_PARAMETERS[kind];
  const filter: Record<string, unknown> = {};
  const statuses: string[] = [];
  const problems: string[] = [];
  for (const [name, value] of pairs) {
    if (!allowed.includes(name)) {
      problems.push(`unknown filter '${name}' (use ${allowed.join(', ')})`);
    } else if (name === 'status') {
      statuses.push(...value.split(',').filter((status) => status !== ''));
    } else if (name === 'limit' || name === 'offset') {
      const number = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(number)) {
        problems.push(`${name} must be a whole number >= 0, got '${value}'`);
      } else {
        filter[name] = number;
      }
    } else {
      filter[name] = value;
    }
  }
  if (problems.length > 0) throw new AdminInputError(problems.join('; '));
  if (statuses.length > 0) filter['status'] = statuses;
  return filter as Filter<K>;
}
