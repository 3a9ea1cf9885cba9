import { z } from 'zod';
import { HttpProblem, unprocessable, type ValidationProblem } from '../http-problem.js';
import { randomId } from '../ids.js';
import type { FakeProfile } from '../profiles/fake-profile.js';
import { readMultipart } from '../read-body.js';
import { clientOf, defineRoute, json, type Route, type RouteContext } from '../route.js';
import { errorResponses, ok } from '../route-docs.js';
import { sniffMediaType } from '../sniff-media-type.js';
import { type SubscriptionRecord, TERMINAL_SUBSCRIPTION_STATES } from '../state/records.js';
import { iso } from '../state/resources.js';
import { FundingReceiptFields } from '../wire/uploads.js';
import { toAttributeProblems } from '../zod-issues.js';

// Room for boundaries and the small text fields beside a file of exactly the limit.
const MULTIPART_OVERHEAD = 64 * 1024;

interface UploadedFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * Checks in this order: 400 (not multipart, unparseable; 413 if the body is far over the limit), 422
 * (missing or non-file `file`, missing text fields), 413 (file over the limit), 400 (empty file, invalid
 * field values), 415 (bytes that are not PDF/JPEG/PNG/WEBP, whatever the declared type). The state checks
 * (404, 409) follow in `run`.
 */
async function readUpload(
  ctx: RouteContext,
  textFields: string[],
  anyType = false,
): Promise<{ file: UploadedFile; fields: Record<string, string> }> {
  const limit = ctx.services.settings.uploadLimitBytes;
  const form = await readMultipart(ctx.request, limit + MULTIPART_OVERHEAD);
  const issues: ValidationProblem[] = [];
  const files = form.getAll('file');
  const file = files[0];
  if (file === undefined) issues.push({ loc: ['body', 'file'], msg: 'Field required', type: 'missing' });
  else if (typeof file === 'string')
    issues.push({ loc: ['body', 'file'], msg: 'Expected a file upload', type: 'value_error' });
  else if (files.length > 1)
    issues.push({ loc: ['body', 'file'], msg: 'Send exactly one file', type: 'value_error' });
  const fields: Record<string, string> = {};
  for (const name of textFields) {
    const value = form.get(name);
    if (typeof value === 'string') fields[name] = value;
    else
      issues.push({
        loc: ['body', name],
        msg: value === null ? 'Field required' : 'Expected a text field',
        type: value === null ? 'missing' : 'string_type',
      });
  }
  if (issues.length > 0 || file === undefined || typeof file === 'string') throw unprocessable(issues);
  if (file.size > limit)
    throw new HttpProblem(413, 'file_too_large', `The file is ${file.size} bytes; the limit is ${limit}`);
  if (file.size === 0) throw new HttpProblem(400, 'empty_file', 'The file is empty');
  if (textFields.length > 0) {
    const checked = FundingReceiptFields.safeParse(fields);
    if (!checked.success) {
      throw new HttpProblem(400, 'validation_failed', 'Invalid funding receipt fields', {
        validationErrors: toAttributeProblems(checked.error, fields),
      });
    }
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  // A profile that takes any funding receipt keeps the declared type of a file it cannot recognise.
  const contentType =
    sniffMediaType(bytes) ?? (anyType ? file.type || 'application/octet-stream' : undefined);
  if (contentType === undefined) {
    throw new HttpProblem(
      415,
      'unsupported_media_type',
      'The file must be a PDF, JPEG, PNG or WEBP (checked on its bytes)',
    );
  }
  return { file: { name: file.name || 'upload', contentType, bytes }, fields };
}

/** The subscription an upload targets: the person's open one in the SPV, or else their latest (terminal) one. */
function target(ctx: RouteContext): SubscriptionRecord {
  const clientId = clientOf(ctx).clientId;
  const { state } = ctx.services;
  const spvSlug = ctx.params['spv_slug'] ?? '';
  const personId = ctx.params['person_id'] ?? '';
  if (state.spvFor(clientId, spvSlug) === undefined)
    throw new HttpProblem(404, 'spv_not_found', 'SPV not found');
  if (state.personFor(clientId, personId) === undefined)
    throw new HttpProblem(404, 'person_not_found', 'Person not found');
  const all = state.subscriptionsOf(spvSlug, personId);
  const subscription = all.find((s) => !TERMINAL_SUBSCRIPTION_STATES.has(s.status)) ?? all[all.length - 1];
  if (subscription === undefined) {
    throw new HttpProblem(404, 'subscription_not_found', 'This person has no subscription in this SPV');
  }
  if (TERMINAL_SUBSCRIPTION_STATES.has(subscription.status)) {
    throw new HttpProblem(409, 'subscription_terminal', `The subscription is ${subscription.status}`);
  }
  return subscription;
}

function store(ctx: RouteContext, file: UploadedFile): { fileId: string; url: string } {
  const fileId = randomId('file');
  // A URL-safe name, so the download URL needs no escaping and passes path parameter checks.
  const filename =
    file.name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 100) || 'upload';
  ctx.services.state.files.set(fileId, {
    id: fileId,
    clientId: clientOf(ctx).clientId,
    filename,
    contentType: file.contentType,
    bytes: file.bytes,
  });
  return { fileId, url: `${ctx.origin}/files/${fileId}/${filename}` };
}

// Spec rule 1: the partner's investor id rides along when the person was created with one.
function partnerIds(ctx: RouteContext, subscription: SubscriptionRecord) {
  const person = ctx.services.state.persons.get(subscription.personId);
  return {
    ...(person?.partnerInvestorId === undefined ? {} : { partnerInvestorId: person.partnerInvestorId }),
    ...(subscription.partnerSubscriptionId === undefined
      ? {}
      : { partnerSubscriptionId: subscription.partnerSubscriptionId }),
  };
}

const paths = '/v1/spvs/{spv_slug}/subscription/{person_id}';
const FileField = z.object({ file: z.string().meta({ format: 'binary' }) });

/** Signed form and funding receipt uploads. */
export function uploadRoutes({ schemas, present, routes, accept }: FakeProfile): Route[] {
  const idempotency = routes.uploadIdempotency === 'optional' ? { idempotency: 'optional' as const } : {};
  const anyReceipt = accept.fundingReceiptTypes === 'any';
  return [
    defineRoute<{ file: UploadedFile }>({
      method: 'POST',
      path: `${paths}/forms`,
      auth: 'bearer',
      partner: true,
      ...idempotency,
      doc: {
        operationId: 'uploadSignedForm',
        summary: 'Upload the signed subscription form',
        tag: 'Subscriptions',
        body: { contentType: 'multipart/form-data', schema: FileField },
        responses: {
          ...ok(201, 'Form on record', schemas.SignedFormUploadResult),
          ...errorResponses(schemas, 400, 401, 403, 404, 409, 413, 415, 422),
        },
      },
      parse: (ctx) => readUpload(ctx, []),
      run: (ctx, { file }) => {
        const subscription = target(ctx);
        const { fileId, url } = store(ctx, file);
        const now = ctx.services.now();
        subscription.form = { fileId, url, uploadedAt: now };
        if (subscription.status === 'awaiting-signed-form') subscription.status = 'awaiting-funding';
        const result = {
          subscriptionSlug: subscription.slug,
          spvSlug: subscription.spvSlug,
          personId: subscription.personId,
          subscriptionFormUrl: url,
          uploadedAt: iso(now),
        };
        ctx.services.emit('signed_subscription_form.uploaded', subscription.clientId, {
          ...result,
          ...partnerIds(ctx, subscription),
        });
        return json(201, present.signedFormResult(result));
      },
    }),
    defineRoute<{ file: UploadedFile; fields: Record<string, string> }>({
      method: 'POST',
      path: `${paths}/fundings`,
      auth: 'bearer',
      partner: true,
      ...idempotency,
      doc: {
        operationId: 'uploadFundingReceipt',
        summary: 'Upload the funding (wire) receipt; the signed form must be on record',
        tag: 'Subscriptions',
        body: {
          contentType: 'multipart/form-data',
          schema: FileField.extend(schemas.FundingReceiptFields.shape),
        },
        responses: {
          ...ok(201, 'Receipt on record', schemas.FundingReceiptUploadResult),
          ...errorResponses(schemas, 400, 401, 403, 404, 409, 413, ...(anyReceipt ? [] : [415]), 422),
        },
      },
      parse: (ctx) => readUpload(ctx, ['amount', 'currency', 'wireReference'], anyReceipt),
      run: (ctx, { file, fields }) => {
        const subscription = target(ctx);
        if (subscription.form === undefined) {
          throw new HttpProblem(
            409,
            'signed_form_missing',
            'Upload the signed subscription form before the funding receipt',
          );
        }
        const { amount, currency, wireReference } = fields as {
          amount: string;
          currency: string;
          wireReference: string;
        };
        if (currency !== subscription.lumpSum.currency) {
          throw new HttpProblem(400, 'validation_failed', 'Invalid funding receipt fields', {
            validationErrors: [
              {
                attribute: 'currency',
                code: 'currency_mismatch',
                message: `The subscription is in ${subscription.lumpSum.currency}`,
              },
            ],
          });
        }
        const { fileId, url } = store(ctx, file);
        const now = ctx.services.now();
        subscription.funding = {
          fileId,
          url,
          uploadedAt: now,
          amount,
          currency,
          wireReference: wireReference.trim(),
        };
        subscription.status = 'funding-received';
        const result = {
          subscriptionSlug: subscription.slug,
          spvSlug: subscription.spvSlug,
          personId: subscription.personId,
          fundingReceiptUrl: url,
          amount,
          currency,
          wireReference: wireReference.trim(),
          uploadedAt: iso(now),
        };
        ctx.services.emit('funding_receipt.uploaded', subscription.clientId, {
          ...result,
          ...partnerIds(ctx, subscription),
        });
        return json(201, present.fundingReceiptResult(result));
      },
    }),
  ];
}
