import type { FakeProfile } from '../profiles/fake-profile.js';
import type { Route } from '../route.js';
import { contractRoutes } from './contracts.js';
import { fileRoutes } from './files.js';
import { investorRoutes } from './investors.js';
import { oauthRoutes } from './oauth.js';
import { spvRequestRoutes } from './spv-requests.js';
import { subscriptionRoutes } from './subscriptions.js';
import { systemRoutes } from './system.js';
import { uploadRoutes } from './uploads.js';

/**
 * The fake's whole route table for one profile: the MSW handlers, the loopback server and `/openapi.json`
 * all read it.
 */
export function allRoutes(profile: FakeProfile): Route[] {
  const routes: Route[] = [
    ...systemRoutes(profile, () => routes),
    ...oauthRoutes(profile),
    ...contractRoutes(profile),
    ...spvRequestRoutes(profile),
    ...investorRoutes(profile),
    ...subscriptionRoutes(profile),
    ...uploadRoutes(profile),
    ...fileRoutes,
  ];
  return routes;
}
