import { ALTERNATE_PROFILE } from './alternate-profile.js';
import { DEFAULT_PROFILE } from './default-profile.js';
import type { FakeProfile, FakeProfileName } from './fake-profile.js';

const PROFILES: Record<FakeProfileName, FakeProfile> = {
  default: DEFAULT_PROFILE,
  alternate: ALTERNATE_PROFILE,
};

/** The profile named by `FakePartnerEquityOptions.profile`; an unknown name fails where the fake is built. */
export function profileNamed(name: FakeProfileName | undefined): FakeProfile {
  const profile = Object.hasOwn(PROFILES, name ?? 'default') ? PROFILES[name ?? 'default'] : undefined;
  if (profile === undefined) {
    throw new TypeError(
      `FakePartnerEquity: profile must be one of ${Object.keys(PROFILES)
        .map((n) => `'${n}'`)
        .join(', ')}`,
    );
  }
  return profile;
}
