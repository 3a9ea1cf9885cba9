import { z } from 'zod';
import { findTemplate } from '../contracts/contract-library.js';
import { HttpProblem, unprocessable } from '../http-problem.js';
import { randomId } from '../ids.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { readJson } from '../read-body.js';
import { clientOf, defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import { spvRequestResource } from '../state/resources.js';
import { cancelSpvRequest } from '../state/spv-request-lifecycle.js';
import { SPV_REQUEST_STATUSES } from '../wire/spv-requests.js';
import { toAttributeProblems, toValidationProblems } from '../zod-issues.js';
import { listPageRoute } from './list-page.js';

type CreateInput = z.infer<FakeProfile['accept']['spvRequestCreate']>;

function owned(ctx: RouteContext) {
  const record = ctx.services.state.spvRequestFor(clientOf(ctx).clientId, ctx.params['slug'] ?? '');
  if (record === undefined) throw new HttpProblem(404, 'spv_request_not_found', 'SPV request not found');
  return record;
}

/** List, create, get and cancel SPV requests. */
export const spvRequestRoutes = (profile: FakeProfile): Route[] => {
  const { schemas, present, accept } = profile;
  return [
    listPageRoute(profile, {
      path: '/v1/spv-requests',
      operationId: 'listSpvRequests',
      summary: "The caller's SPV requests",
      tag: 'SPV requests',
      filters: { status: z.enum(SPV_REQUEST_STATUSES).optional() },
      documented: { query: schemas.SpvRequestListParams, page: schemas.SpvRequestPage },
      rows: (ctx, { status }) => {
        const clientId = clientOf(ctx).clientId;
        return [...ctx.services.state.spvRequests.values()]
          .filter((r) => r.clientId === clientId && (status === undefined || r.status === status))
          .sort((a, b) => a.seq - b.seq);
      },
      entry: spvRequestResource,
      present: present.spvRequestListItem,
    }),
    defineRoute<CreateInput>({
      method: 'POST',
      path: '/v1/spv-requests',
      auth: 'bearer',
      partner: true,
      idempotency: 'required',
      doc: {
        operationId: 'createSpvRequest',
        summary: 'Submit an SPV request, validated against its contract template',
        tag: 'SPV requests',
        body: { contentType: 'application/json', schema: schemas.SpvRequestCreate },
        responses: {
          ...ok(201, 'Created (pending-review)', schemas.SpvRequest),
          ...errorResponses(schemas, 400, 401, 403, 404, 409, 422),
        },
      },
      parse: async (ctx) => {
        const body = await readJson(ctx.request, ctx.services.settings.maxJsonBodyBytes);
        const parsed = accept.spvRequestCreate.safeParse(body);
        if (!parsed.success) throw unprocessable(toValidationProblems(parsed.error, body, ['body']));
        return parsed.data;
      },
      run: (ctx, input) => {
        const client = clientOf(ctx);
        const found = findTemplate(input.templateId, input.templateVersion);
        if (found === undefined) {
          const where =
            input.templateVersion === undefined ? 'any contract version' : `version ${input.templateVersion}`;
          throw new HttpProblem(
            404,
            'template_not_found',
            `Template "${input.templateId}" not found in ${where}`,
          );
        }
        const checked = found.template.schema.safeParse(input.attributes);
        if (!checked.success) {
          throw new HttpProblem(
            400,
            'contract_validation_failed',
            `Attributes do not match ${input.templateId}@${found.version}`,
            {
              validationErrors: toAttributeProblems(checked.error, input.attributes),
            },
          );
        }
        const now = ctx.services.now();
        const record = {
          seq: ctx.services.state.nextSeq(),
          slug: randomId('spvr'),
          clientId: client.clientId,
          tenantSlug: client.tenantSlug,
          status: 'pending-review' as const,
          templateId: input.templateId,
          templateVersion: found.version,
          attributes: structuredClone(input.attributes),
          createdAt: now,
          updatedAt: now,
        };
        ctx.services.state.spvRequests.set(record.slug, record);
        const resource = spvRequestResource(record);
        ctx.services.emit('spv_request.created', client.clientId, resource);
        return json(201, present.spvRequest(resource));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/spv-requests/{slug}',
      auth: 'bearer',
      partner: true,
      doc: {
        operationId: 'getSpvRequest',
        summary: 'One SPV request of the caller',
        tag: 'SPV requests',
        responses: {
          ...ok(200, 'SPV request', schemas.SpvRequest),
          ...errorResponses(schemas, 401, 403, 404, 422),
        },
      },
      run: (ctx) => json(200, present.spvRequest(spvRequestResource(owned(ctx)))),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/spv-requests/{slug}',
      auth: 'bearer',
      partner: true,
      doc: {
        operationId: 'cancelSpvRequest',
        summary: 'Cancel a pending SPV request',
        tag: 'SPV requests',
        responses: {
          ...ok(200, 'Cancelled SPV request', schemas.SpvRequest),
          ...errorResponses(schemas, 401, 403, 404, 409, 422),
        },
      },
      run: (ctx) => {
        const record = owned(ctx);
        if (record.status !== 'pending-review') {
          throw new HttpProblem(
            409,
            'spv_request_terminal',
            `The SPV request is ${record.status} and can no longer be cancelled`,
          );
        }
        return json(200, present.spvRequest(spvRequestResource(cancelSpvRequest(ctx.services, record.slug))));
      },
    }),
  ];
};
