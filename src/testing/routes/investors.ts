import { z } from 'zod';
import { unprocessable, unprocessableAt } from '../http-problem.js';
import { randomId } from '../ids.js';
import { readJson } from '../read-body.js';
import { clientOf, defineRoute, json, type Route } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import {
  InvestorCreateBody,
  InvestorCreateResponse,
  InvestorInput,
  type InvestorResult,
  type InvestorRowError,
} from '../wire/investors.js';
import { isMissing, toValidationProblems } from '../zod-issues.js';

// Rows are checked one by one so one bad row never fails the request; unknown row fields are ignored.
const Row = z.object(InvestorInput.shape);
type Row = z.infer<typeof Row>;

const Body = z.object({ investors: z.array(z.record(z.string(), z.unknown())) });

const codeFor: Record<string, InvestorRowError['code']> = {
  email: 'invalid_email',
  dateOfBirth: 'invalid_date_of_birth',
  countryOfResidence: 'invalid_country',
};

function rowError(row: Record<string, unknown>, today: string): InvestorRowError | undefined {
  const parsed = Row.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'partnerInvestorId');
    if (isMissing(issue, row))
      return { code: 'missing_field', message: `${field} is required`, retryable: false, field };
    return {
      code: codeFor[field] ?? 'invalid_field',
      message: `${field}: ${issue.message}`,
      retryable: false,
      field,
    };
  }
  // A birth date must lie in the past, and after 1900 (the fake's choice of a plausible bound).
  if (parsed.data.dateOfBirth >= today || parsed.data.dateOfBirth < '1900-01-01') {
    return {
      code: 'invalid_date_of_birth',
      message: 'dateOfBirth must be a past date after 1900-01-01',
      retryable: false,
      field: 'dateOfBirth',
    };
  }
  return undefined;
}

/** `POST /v1/investors`: bulk create with one result per row, in input order. */
export const investorRoutes: Route[] = [
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
      body: { contentType: 'application/json', schema: InvestorCreateBody },
      responses: {
        ...ok(200, 'One result per row', InvestorCreateResponse),
        ...errorResponses(401, 403, 409, 422),
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
        const error = rowError(row, today);
        if (error !== undefined) return fail(error);
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
        const data = row as Row;
        const person = {
          id: randomId('per'),
          clientId,
          partnerInvestorId,
          email: data.email,
          firstName: data.firstName.trim(),
          lastName: data.lastName.trim(),
          dateOfBirth: data.dateOfBirth,
          countryOfResidence: data.countryOfResidence,
          createdAt: now,
        };
        state.persons.set(person.id, person);
        return { partnerInvestorId, status: 'created', servicePersonId: person.id };
      });
      return json(200, { results });
    },
  }),
];
