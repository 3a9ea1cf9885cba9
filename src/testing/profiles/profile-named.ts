import { ALTERNATE_PROFILE } from './alternate-profile.js';
import { DEFAULT_PROFILE } from './default-profile.js';
import type { FakeProfile, FakeProfileName } from './fake-profile.js';

const PROFILES: Record<FakeProfileName, FakeProfile> = {
  default: DEFAULT_PROFILE,
  alternate: ALTERNATE_PROFILE,
};

/** The environment variable that picks the profile when the `profile` option is absent. */
export const FAKE_PROFILE_ENV = 'PARTNER_EQUITY_FAKE_PROFILE';

/**
 * The profile named by `FakePartnerEquityOptions.profile`, else by `PARTNER_EQUITY_FAKE_PROFILE` (so a whole
 * test suite, the quickstart or the examples can be run against the other server unchanged), else
 * `'default'`. An unknown name fails where the fake is built.
 */
export function profileNamed(
  option: FakeProfileName | undefined,
  env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    FAKE_PROFILE_ENV
  ],
): FakeProfile {
  const name = option ?? (env === undefined || env.trim() === '' ? 'default' : env.trim());
  const profile = Object.hasOwn(PROFILES, name) ? PROFILES[name as FakeProfileName] : undefined;
  if (profile === undefined) {
    throw new TypeError(
      `FakePartnerEquity: profile (or ${FAKE_PROFILE_ENV}) must be one of ${Object.keys(PROFILES)
        .map((n) => `'${n}'`)
        .join(', ')}`,
    );
  }
  return profile;
}
