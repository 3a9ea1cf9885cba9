import { z } from 'zod';
import { type AttributeProblem, HttpProblem, unprocessable, unprocessableAt } from '../http-problem.js';
import { randomId } from '../ids.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { readJson } from '../read-body.js';
import { clientOf, defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import { type SubscriptionRecord, TERMINAL_SUBSCRIPTION_STATES } from '../state/records.js';
import { subscriptionResult } from '../state/resources.js';
import { CurrencyCode, PositiveDecimalString } from '../wire/primitives.js';
import { toValidationProblems } from '../zod-issues.js';

// 422 checks the shape (types, required keys); the values are checked against the SPV and answered 400.
const Row = z.object({
  servicePersonId: z.string(),
  lumpSum: z.object({ currency: z.string(), value: z.string() }),
  shareClassSlug: z.string(),
  partnerSubscriptionId: z.string().min(1).max(128).optional(),
});
type Row = z.infer<typeof Row>;
const Body = z.object({ subscriptions: z.array(Row) });

function validate(ctx: RouteContext, spvSlug: string, rows: Row[]): AttributeProblem[] {
  const { state } = ctx.services;
  const clientId = clientOf(ctx).clientId;
  const spv = state.spvs.get(spvSlug)!;
  const problems: AttributeProblem[] = [];
  const people = new Set<string>();
  const ids = new Set<string>();
  rows.forEach((row, i) => {
    const at = (field: string, code: string, message: string) =>
      problems.push({ attribute: `subscriptions[${i}].${field}`, code, message });
    if (!PositiveDecimalString.safeParse(row.lumpSum.value).success) {
      at(
        'lumpSum.value',
        'invalid_amount',
        'Expected a decimal string greater than zero, such as "25000.00"',
      );
    }
    if (!CurrencyCode.safeParse(row.lumpSum.currency).success) {
      at('lumpSum.currency', 'invalid_currency', 'Expected an ISO 4217 currency code');
    } else if (row.lumpSum.currency !== spv.currency) {
      at('lumpSum.currency', 'currency_mismatch', `This SPV takes ${spv.currency}`);
    }
    if (!spv.shareClasses.some((c) => c.slug === row.shareClassSlug)) {
      const valid = spv.shareClasses.map((c) => `${c.slug} ("${c.name}")`).join(', ');
      at(
        'shareClassSlug',
        'unknown_share_class',
        `No share class "${row.shareClassSlug}" in this SPV; its share classes: ${valid || 'none'}`,
      );
    }
    if (state.personFor(clientId, row.servicePersonId) === undefined) {
      at('servicePersonId', 'unknown_person', 'No investor with this servicePersonId');
    } else if (people.has(row.servicePersonId)) {
      at('servicePersonId', 'duplicate_in_request', 'This investor appears earlier in the same request');
    } else if (
      existing(ctx, spvSlug, row) === undefined &&
      active(ctx, spvSlug, row.servicePersonId) !== undefined
    ) {
      at(
        'servicePersonId',
        'subscription_exists',
        'This investor already has an open subscription in this SPV',
      );
    }
    people.add(row.servicePersonId);
    if (row.partnerSubscriptionId !== undefined) {
      if (ids.has(row.partnerSubscriptionId)) {
        at(
          'partnerSubscriptionId',
          'duplicate_in_request',
          'This partnerSubscriptionId appears earlier in the request',
        );
      }
      ids.add(row.partnerSubscriptionId);
    }
  });
  return problems;
}

function existing(ctx: RouteContext, spvSlug: string, row: Row): SubscriptionRecord | undefined {
  if (row.partnerSubscriptionId === undefined) return undefined;
  return [...ctx.services.state.subscriptions.values()].find(
    (s) => s.spvSlug === spvSlug && s.partnerSubscriptionId === row.partnerSubscriptionId,
  );
}

function active(ctx: RouteContext, spvSlug: string, personId: string): SubscriptionRecord | undefined {
  return ctx.services.state
    .subscriptionsOf(spvSlug, personId)
    .find((s) => !TERMINAL_SUBSCRIPTION_STATES.has(s.status));
}

/** `POST /v1/spvs/{spv_slug}/subscriptions`: all rows or none (a 400 names every bad value). */
export const subscriptionRoutes = ({ schemas, present }: FakeProfile): Route[] => [
  defineRoute<z.infer<typeof Body>>({
    method: 'POST',
    path: '/v1/spvs/{spv_slug}/subscriptions',
    auth: 'bearer',
    partner: true,
    idempotency: 'optional',
    doc: {
      operationId: 'createSubscriptions',
      summary: 'Subscribe investors to an SPV',
      tag: 'Subscriptions',
      body: { contentType: 'application/json', schema: schemas.SubscriptionCreateBody },
      responses: {
        ...ok(201, 'Created subscriptions', schemas.SubscriptionCreateResponse),
        ...errorResponses(schemas, 400, 401, 403, 404, 409, 422),
      },
    },
    parse: async (ctx) => {
      const { settings } = ctx.services;
      const body = await readJson(ctx.request, settings.maxJsonBodyBytes);
      const parsed = Body.safeParse(body);
      if (!parsed.success) throw unprocessable(toValidationProblems(parsed.error, body, ['body']));
      const count = parsed.data.subscriptions.length;
      if (count === 0)
        throw unprocessableAt(
          ['body', 'subscriptions'],
          'At least one subscription is required',
          'too_short',
        );
      if (count > settings.maxSubscriptionRows) {
        throw unprocessableAt(
          ['body', 'subscriptions'],
          `At most ${settings.maxSubscriptionRows} subscriptions per request`,
          'too_long',
        );
      }
      return parsed.data;
    },
    run: (ctx, { subscriptions }) => {
      const clientId = clientOf(ctx).clientId;
      const spvSlug = ctx.params['spv_slug'] ?? '';
      const { state } = ctx.services;
      if (state.spvFor(clientId, spvSlug) === undefined)
        throw new HttpProblem(404, 'spv_not_found', 'SPV not found');
      const problems = validate(ctx, spvSlug, subscriptions);
      if (problems.length > 0) {
        throw new HttpProblem(400, 'validation_failed', 'Some subscriptions are invalid; none was created', {
          validationErrors: problems,
        });
      }
      const now = ctx.services.now();
      const results = subscriptions.map((row) => {
        const found = existing(ctx, spvSlug, row);
        if (found !== undefined) return subscriptionResult(found);
        const record: SubscriptionRecord = {
          seq: state.nextSeq(),
          slug: randomId('sub'),
          clientId,
          spvSlug,
          personId: row.servicePersonId,
          status: 'awaiting-signed-form',
          lumpSum: { currency: row.lumpSum.currency, value: row.lumpSum.value },
          shareClassSlug: row.shareClassSlug,
          ...(row.partnerSubscriptionId === undefined
            ? {}
            : { partnerSubscriptionId: row.partnerSubscriptionId }),
          createdAt: now,
          completedEventEmitted: false,
        };
        state.subscriptions.set(record.slug, record);
        return subscriptionResult(record);
      });
      return json(201, { results: results.map((result) => present.subscriptionResult(result)) });
    },
  }),
];
