import { randomId } from '../ids.js';
import * as wire from '../wire/index.js';
import { MAX_INVESTOR_ROWS } from '../wire/investors.js';
import { MAX_SUBSCRIPTION_ROWS } from '../wire/subscriptions.js';
import { defaultInvestorRow } from './default-investor-row.js';
import { type FakeProfile, type ProfilePresenter, profileSchemas } from './fake-profile.js';
import { slugifiedShareClass } from './share-class-slug.js';

const same = <T>(body: T): T => body;

// The canonical wire JSON the routes build is this profile's wire JSON: every presenter is the identity.
const present: ProfilePresenter = {
  root: same,
  health: same,
  tokenInfo: same,
  contractVersions: same,
  contractDocument: (_kind, doc) => doc,
  contractList: (kind, version, docs) => ({ version, [kind]: docs }),
  spvRequest: same,
  spvRequestListItem: same,
  listPage: same,
  timestamp: same,
  investorResult: same,
  subscriptionResult: same,
  signedFormResult: same,
  fundingReceiptResult: same,
  problem: same,
  noRoute: () => undefined,
  requestId: () => randomId('req'),
  errorId: () => randomId('err'),
};

/** The fake's own answer to every spec gap (listed in `docs/spec-gaps.md`). */
export const DEFAULT_PROFILE: FakeProfile = {
  name: 'default',
  webhookPayloads: 'full',
  description: 'Served by the fake Partner Equity API (@partner-equity/sdk/testing).',
  defaults: {
    skewSeconds: 5,
    maxAssertionLifetimeSeconds: 300,
    maxInvestorRows: MAX_INVESTOR_ROWS,
    maxSubscriptionRows: MAX_SUBSCRIPTION_ROWS,
    maxJsonBodyBytes: 5 * 1024 * 1024,
  },
  routes: {
    contractsAuth: 'none',
    uploadIdempotency: 'optional',
    listOrder: 'newest-first',
    shareClassSlug: slugifiedShareClass,
  },
  accept: {
    // RFC 8037 names the algorithm `EdDSA`; RFC 9864 adds the fully specified `Ed25519`. Both mean Ed25519.
    assertionAlgorithms: ['EdDSA', 'Ed25519'],
    audienceArray: true,
    // The server ignores unknown body fields (the documented schema is the strict one).
    spvRequestCreate: wire.SpvRequestCreate.loose(),
    investorRow: defaultInvestorRow,
    fundingReceiptTypes: 'form-types',
  },
  schemas: profileSchemas(wire),
  present,
};
