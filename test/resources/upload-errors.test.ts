import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from '../../src/core/errors/errors.js';
import { MAX_UPLOAD_BYTES } from '../../src/schemas/uploads.js';
import { useFakeApi } from './fake-harness.js';
import { fileBytes } from './files.js';
import { subscribedInvestor } from './fixtures.js';

const api = useFakeApi();
const pdf = fileBytes('pdf');

describe('upload errors the API answers, typed', () => {
  it('404 for an unknown SPV or person, on both uploads', async () => {
    const env = await api.start();
    const { spvSlug, personId, currency } = await subscribedInvestor(env);
    const receipt = { file: pdf, amount: '1.00', currency, wireReference: 'W' };
    const noSpv = await env.client.subscriptions
      .uploadSignedForm('spv_missing', personId, pdf)
      .catch((e: unknown) => e);
    expect(noSpv).toBeInstanceOf(NotFoundError);
    expect(noSpv).toMatchObject({ code: 'spv_not_found', status: 404 });
    const noPerson = await env.client.subscriptions
      .uploadFundingReceipt(spvSlug, 'per_missing', receipt)
      .catch((e: unknown) => e);
    expect(noPerson).toMatchObject({ code: 'person_not_found' });
    await expect(
      env.client.subscriptions.uploadFundingReceipt('spv_missing', personId, receipt),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('409 for a receipt before the form, and for either upload once the subscription is terminal', async () => {
    const env = await api.start();
    const { spvSlug, personId, currency, subscriptionSlug } = await subscribedInvestor(env);
    const receipt = { file: pdf, amount: '25000.00', currency, wireReference: 'W-1' };
    const early = await env.client.subscriptions
      .uploadFundingReceipt(spvSlug, personId, receipt)
      .catch((e: unknown) => e);
    expect(early).toBeInstanceOf(ConflictError);
    expect(early).toMatchObject({ status: 409, code: 'signed_form_missing' });
    expect((early as ConflictError).errorId).toBeTruthy();

    await env.client.subscriptions.uploadSignedForm(spvSlug, personId, pdf);
    env.fake.admin.cancelSubscription(subscriptionSlug);
    const form = await env.client.subscriptions
      .uploadSignedForm(spvSlug, personId, pdf)
      .catch((e: unknown) => e);
    expect(form).toBeInstanceOf(ConflictError);
    expect(form).toMatchObject({ code: 'subscription_terminal' });
    await expect(
      env.client.subscriptions.uploadFundingReceipt(spvSlug, personId, receipt),
    ).rejects.toMatchObject({
      code: 'subscription_terminal',
    });
  });

  it('413 when maxBytes is raised past the API limit; 415 when a receipt type override is sent', async () => {
    const env = await api.start();
    const { spvSlug, personId, currency } = await subscribedInvestor(env);
    const tooLarge = await env.client.subscriptions
      .uploadSignedForm(spvSlug, personId, fileBytes('pdf', MAX_UPLOAD_BYTES + 1), {
        maxBytes: 2 * MAX_UPLOAD_BYTES,
      })
      .catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect(tooLarge).toMatchObject({ status: 413, code: 'file_too_large' });

    await env.client.subscriptions.uploadSignedForm(spvSlug, personId, pdf);
    const gif = await env.client.subscriptions
      .uploadFundingReceipt(spvSlug, personId, {
        file: fileBytes('gif'),
        contentType: 'image/gif',
        amount: '25000.00',
        currency,
        wireReference: 'W-2',
      })
      .catch((e: unknown) => e);
    expect(gif).toBeInstanceOf(UnsupportedMediaTypeError);
    expect(gif).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('400 for receipt fields the API refuses; 422 from the API surfaces with its issues', async () => {
    const env = await api.start();
    const { spvSlug, personId, currency } = await subscribedInvestor(env);
    await env.client.subscriptions.uploadSignedForm(spvSlug, personId, pdf);
    const other = currency === 'USD' ? 'EUR' : 'USD';
    const mismatch = await env.client.subscriptions
      .uploadFundingReceipt(spvSlug, personId, {
        file: pdf,
        amount: '1.00',
        currency: other,
        wireReference: 'W',
      })
      .catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(BadRequestError);
    expect((mismatch as BadRequestError).validationErrors).toEqual([
      { attribute: 'currency', code: 'currency_mismatch', message: expect.any(String) },
    ]);
    const unprocessable = await env.client.subscriptions
      .uploadSignedForm(spvSlug, personId, pdf, { headers: { 'Idempotency-Key': 'not a key' } })
      .catch((e: unknown) => e);
    expect(unprocessable).toBeInstanceOf(UnprocessableEntityError);
    expect((unprocessable as UnprocessableEntityError).issues[0]?.loc).toEqual(['header', 'Idempotency-Key']);
  });

  it('401 and 403 on both uploads', async () => {
    const env = await api.start();
    const { spvSlug, personId, currency } = await subscribedInvestor(env);
    const receipt = { file: pdf, amount: '1.00', currency, wireReference: 'W' };
    const stranger = await api.partner(env, { wrongKey: true });
    await expect(
      stranger.client.subscriptions.uploadSignedForm(spvSlug, personId, pdf),
    ).rejects.toBeInstanceOf(AuthenticationError);
    await expect(
      stranger.client.subscriptions.uploadFundingReceipt(spvSlug, personId, receipt),
    ).rejects.toBeInstanceOf(AuthenticationError);
    const unprovisioned = await api.partner(env, { provisioned: false });
    await expect(
      unprovisioned.client.subscriptions.uploadSignedForm(spvSlug, personId, pdf),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(
      unprovisioned.client.subscriptions.uploadFundingReceipt(spvSlug, personId, receipt),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
