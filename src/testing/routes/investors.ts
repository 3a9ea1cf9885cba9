import { z } from 'zod';
import { unprocessable, unprocessableAt } from '../http-problem.js';
import { randomId } from '../ids.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { readJson } from '../read-body.js';
import { clientOf, defineRoute, json, type Route } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import type { InvestorResult, InvestorRowError } from '../wire/investors.js';
import { toValidationProblems } from '../zod-issues.js';

const Body = z.object({ investors: z.array(z.record(z.string(), z.unknown())) });

/** `POST /v1/investors`: bulk create with one result per row, in input order. */
export const investorRoutes = ({ schemas, present, accept }: FakeProfile): Route[] => [
  defineRoute<z.infer<typeof Body>>({
    method: 'POST',
    path: '/v1/investors',
    auth: 'bearer',
    partner: true,
    idempotency: 'optional',
    doc: {
      operationId: 'createInvestors',
      summary: 'Bulk-create investors; row failures are reported per row',
      tag: 'Investors',
      body: { contentType: 'application/json', schema: schemas.InvestorCreateBody },
      responses: {
        ...ok(200, 'One result per row', schemas.InvestorCreateResponse),
        ...errorResponses(schemas, 401, 403, 409, 422),
      },
    },
    parse: async (ctx) => {
      const { settings } = ctx.services;
      const body = await readJson(ctx.request, settings.maxJsonBodyBytes);
      const parsed = Body.safeParse(body);
      if (!parsed.success) {
        throw unprocessable(toValidationProblems(parsed.error, body, ['body']));
      }
      const count = parsed.data.investors.length;
      if (count === 0)
        throw unprocessableAt(['body', 'investors'], 'At least one investor is required', 'too_short');
      if (count > settings.maxInvestorRows) {
        throw unprocessableAt(
          ['body', 'investors'],
          `At most ${settings.maxInvestorRows} investors per request`,
          'too_long',
        );
      }
      return parsed.data;
    },
    run: (ctx, { investors }) => {
      const clientId = clientOf(ctx).clientId;
      const { state } = ctx.services;
      const now = ctx.services.now();
      const today = new Date(now).toISOString().slice(0, 10);
      const seen = new Set<string>();
      const results: InvestorResult[] = investors.map((row) => {
        const partnerInvestorId =
          typeof row['partnerInvestorId'] === 'string' ? row['partnerInvestorId'] : '';
        const fail = (error: InvestorRowError): InvestorResult => ({
          partnerInvestorId,
          status: 'failed',
          error,
        });
        const checked = accept.investorRow(row, today);
        if (!checked.ok) return fail(checked.error as InvestorRowError);
        if (seen.has(partnerInvestorId)) {
          return fail({
            code: 'duplicate_in_request',
            message: 'This partnerInvestorId appears earlier in the same request',
            retryable: false,
            field: 'partnerInvestorId',
          });
        }
        seen.add(partnerInvestorId);
        if (ctx.services.faults.takeRowFault(partnerInvestorId)) {
          return fail({
            code: 'temporarily_unavailable',
            message: 'The row could not be processed right now; send it again',
            retryable: true,
            field: 'partnerInvestorId',
          });
        }
        const existing = state.personByPartnerId(clientId, partnerInvestorId);
        if (existing !== undefined)
          return { partnerInvestorId, status: 'existing', servicePersonId: existing.id };
        const person = {
          id: randomId('per'),
          clientId,
          partnerInvestorId,
          ...checked.person,
          createdAt: now,
        };
        state.persons.set(person.id, person);
        return { partnerInvestorId, status: 'created', servicePersonId: person.id };
      });
      return json(200, { results: results.map((result) => present.investorResult(result)) });
    },
  }),
];
