// The rule in src/schemas/README.md, one test per clause. Each fails if the rule is broken: plant a
// required `checkedAt` in HealthResponse again, close an enum, refuse a `+00:00` timestamp, cap a name…
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ContractCatalog,
  ContractPrimitive,
  ContractSample,
  ContractTemplate,
  ContractVersionList,
} from '../../src/schemas/contracts.js';
import { InvestorInput, InvestorResult } from '../../src/schemas/investors.js';
import { TokenInfo } from '../../src/schemas/oauth.js';
import {
  SetupFee,
  ShareClass,
  SpvRequest,
  SpvRequestCreate,
  SpvRequestListItem,
  SpvRequestPage,
} from '../../src/schemas/spv-requests.js';
import { SubscriptionInput, SubscriptionResult } from '../../src/schemas/subscriptions.js';
import { HealthResponse, OpenApiDocument, RootResponse } from '../../src/schemas/system.js';
import {
  FundingReceiptFields,
  FundingReceiptUploadResult,
  SignedFormUploadResult,
} from '../../src/schemas/uploads.js';

const spvRequest = {
  spvRequestSlug: 'spvr_1',
  status: 'pending-review',
  templateId: 'spv-standard',
  templateVersion: '2025-06',
  tenantSlug: 't',
  clientId: 'c',
  attributes: {},
  createdAt: '2026-11-23T18:00:00Z',
  updatedAt: '2026-11-23T18:00:00Z',
};
const subscription = {
  subscriptionSlug: 'sub_1',
  spvSlug: 'spv_1',
  personId: 'per_1',
  status: 'awaiting-signed-form',
  lumpSum: { currency: 'EUR', value: '1' },
  shareClassSlug: 'class-a',
};
const formResult = {
  subscriptionSlug: 'sub_1',
  spvSlug: 'spv_1',
  personId: 'per_1',
  subscriptionFormUrl: 'https://files.example/f.pdf',
  uploadedAt: '2026-11-23T18:00:00Z',
};
const receiptResult = {
  ...formResult,
  fundingReceiptUrl: 'https://files.example/r.pdf',
  amount: '1',
  currency: 'EUR',
  wireReference: 'W',
};

const ok = (schema: z.ZodType, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
const refused = (schema: z.ZodType, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);

describe('stated fields are required, and typed', () => {
  it.each(Object.keys(spvRequest))('SpvRequest without %s is refused', (field) => {
    ok(SpvRequest, spvRequest);
    refused(SpvRequest, { ...spvRequest, [field]: undefined });
    refused(SpvRequest, { ...spvRequest, [field]: 42 });
  });

  it('the other stated resources: page counts, investor and subscription rows, upload results', () => {
    refused(SpvRequestPage, { documents: [], count: 0, skip: 0 });
    refused(InvestorResult, { status: 'created' });
    refused(InvestorResult, { partnerInvestorId: 'a' });
    for (const field of Object.keys(subscription))
      refused(SubscriptionResult, { ...subscription, [field]: undefined });
    for (const field of Object.keys(formResult))
      refused(SignedFormUploadResult, { ...formResult, [field]: undefined });
    refused(FundingReceiptUploadResult, { ...receiptResult, wireReference: undefined });
    refused(ShareClass, { name: 'A', slug: 'a', managementFeePercent: '2', setupFee: {} });
  });
});

describe('conditional fields ("present when …") and post-approval objects: absent or null', () => {
  it.each(['rejectionReason', 'cancelledAt', 'approvedAt', 'materialisedRefs', 'feesAndCarry'])(
    'SpvRequest.%s',
    (field) => {
      ok(SpvRequest, { ...spvRequest, [field]: null });
      ok(SpvRequest, spvRequest);
    },
  );

  it('investor rows: servicePersonId and error; row error field; subscription partnerSubscriptionId', () => {
    ok(InvestorResult, { partnerInvestorId: 'a', status: 'created', servicePersonId: 'p', error: null });
    ok(InvestorResult, {
      partnerInvestorId: 'a',
      status: 'failed',
      servicePersonId: null,
      error: { code: 'x', message: 'm', retryable: false, field: null },
    });
    ok(SubscriptionResult, { ...subscription, partnerSubscriptionId: null });
  });
});

describe('shapes the spec leaves open: every field optional, unknown fields kept', () => {
  const open: [string, z.ZodType][] = [
    ['RootResponse', RootResponse],
    ['HealthResponse', HealthResponse],
    ['OpenApiDocument', OpenApiDocument],
    ['TokenInfo', TokenInfo],
    ['SetupFee', SetupFee],
    ['SpvRequestListItem', SpvRequestListItem],
    ['ContractTemplate', ContractTemplate],
    ['ContractCatalog', ContractCatalog],
    ['ContractPrimitive', ContractPrimitive],
    ['ContractSample', ContractSample],
  ];
  it.each(open)('%s accepts {} and a body of other fields', (_name, schema) => {
    ok(schema, {});
    expect(schema.parse({ somethingElse: 1 })).toEqual({ somethingElse: 1 });
  });

  it('named fields of open shapes also accept null', () => {
    ok(HealthResponse, { status: null, checkedAt: null });
    ok(TokenInfo, { clientId: null, clientType: null, applicationName: null });
    ok(RootResponse, { name: null, docsUrl: null });
  });

  it('contract versions: a plain list of strings or objects, or an object around one', () => {
    ok(ContractVersionList, ['2024-01', '2025-06']);
    ok(ContractVersionList, [{ version: '2025-06', releasedAt: null }]);
    ok(ContractVersionList, { latest: '2025-06', versions: ['2025-06'] });
    ok(ContractVersionList, { items: [] });
  });

  it('inner fields not shown: setupFee, lumpSum in results', () => {
    ok(ShareClass, {
      name: 'A',
      slug: 'a',
      managementFeePercent: '2',
      carryPercent: '20',
      setupFee: { value: '1' },
    });
    ok(SubscriptionResult, { ...subscription, lumpSum: { amount: '1', currencyCode: 'EUR' } });
  });

  it('list pages hold summaries', () => {
    ok(SpvRequestPage, {
      documents: [{ spvRequestSlug: 'a', status: 'approved' }],
      count: 1,
      skip: 0,
      limit: 10,
    });
  });
});

describe('open enums and server strings', () => {
  it('statuses the spec does not close are any string', () => {
    ok(SpvRequest, { ...spvRequest, status: 'on-hold' });
    ok(InvestorResult, { partnerInvestorId: 'a', status: 'success', servicePersonId: 'p' });
    ok(SubscriptionResult, { ...subscription, status: 'Pending' });
  });

  it.each([
    '2026-11-23T18:00:00Z',
    '2026-11-23T18:00:00.123456+00:00',
    '2026-11-23T18:00:00.1+01:00',
    '2026-11-23T18:00:00.123456789Z',
  ])('timestamps are the server strings, kept as sent: %s', (timestamp) => {
    expect(SpvRequest.parse({ ...spvRequest, createdAt: timestamp }).createdAt).toBe(timestamp);
  });

  it('URLs may be relative', () => {
    ok(SignedFormUploadResult, { ...formResult, subscriptionFormUrl: '/files/f.pdf' });
    ok(FundingReceiptUploadResult, { ...receiptResult, fundingReceiptUrl: 'files/r.pdf' });
  });
});

describe('inputs: what the spec states, nothing more', () => {
  it('an investor needs only partnerInvestorId; stated formats are checked where present', () => {
    ok(InvestorInput, { partnerInvestorId: 'a' });
    refused(InvestorInput, { email: 'a@b.example' });
    refused(InvestorInput, { partnerInvestorId: 'a', email: 'no-at-sign' });
    refused(InvestorInput, { partnerInvestorId: 'a', dateOfBirth: '1990-02-30' });
    refused(InvestorInput, { partnerInvestorId: 'a', dateOfBirth: '30.01.1990' });
    refused(InvestorInput, { partnerInvestorId: 'a', countryOfResidence: 'DEU' });
  });

  it('no invented bounds: long values, any two-letter code, unknown fields pass', () => {
    ok(InvestorInput, {
      partnerInvestorId: 'p'.repeat(1000),
      firstName: 'A'.repeat(1000),
      lastName: '',
      email: `${'a'.repeat(300)}@example.com`,
      countryOfResidence: 'XK',
      dateOfBirth: '1890-01-01',
      phone: '+49',
    });
    ok(SubscriptionInput, {
      servicePersonId: 'p'.repeat(500),
      shareClassSlug: 's'.repeat(500),
      lumpSum: { currency: 'XTS', value: '123456789012345678901234.123456789012' },
      addedLater: true,
    });
    ok(FundingReceiptFields, { amount: '0.000000001', currency: 'usd', wireReference: 'W'.repeat(1000) });
  });

  it('money stays a decimal string', () => {
    refused(SubscriptionInput, {
      servicePersonId: 'p',
      shareClassSlug: 's',
      lumpSum: { currency: 'EUR', value: 10 },
    });
    refused(SubscriptionInput, {
      servicePersonId: 'p',
      shareClassSlug: 's',
      lumpSum: { currency: 'EUR', value: '1e3' },
    });
  });

  it('an SPV request body names its template and passes every other field through', () => {
    refused(SpvRequestCreate, { attributes: {} });
    expect(SpvRequestCreate.parse({ templateId: 't', attributes: {}, dealOwner: 'x' })).toEqual({
      templateId: 't',
      attributes: {},
      dealOwner: 'x',
    });
  });

  it('no check depends on the runtime ICU data (no Intl in the SDK schemas and resources)', () => {
    for (const file of sourceFiles(['src/schemas', 'src/resources'])) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/\bIntl\./);
    }
  });
});

describe("the fake's choices stay out of the SDK", () => {
  it('the SDK (everything but the fake and the CLI that serves it) never imports src/testing', () => {
    const outside = sourceFiles(['src']).filter((file) => !/\/src\/(testing|cli)\//.test(file));
    for (const file of outside) {
      const imports = [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? '');
      expect(
        imports.filter((path) => path.includes('testing/')),
        file,
      ).toEqual([]);
    }
  });
});

function sourceFiles(dirs: string[]): string[] {
  const root = new URL('../../', import.meta.url).pathname;
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) out.push(path);
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return out;
}
