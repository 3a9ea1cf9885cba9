import { ALTERNATE_PROFILE_CHOICES, type FakeProfileName, ManualClock } from '../../src/testing/index.js';
import { startFake } from './helpers.js';

/** The test title of one alternate-profile choice (`id: what`); an id not in the list fails at once. */
export function choice(id: string): string {
  const found = ALTERNATE_PROFILE_CHOICES.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no ALTERNATE_PROFILE_CHOICES entry "${id}"`);
  return `${id}: ${found.what}`;
}

/** A logged-in fake of each profile, on clocks started at the same instant (…T18:00:00.123Z). */
export async function startBoth() {
  const start = Date.UTC(2026, 10, 23, 18, 0, 0, 123);
  const started = await Promise.all(
    (['default', 'alternate'] as const).map((profile: FakeProfileName) =>
      startFake({ profile, clock: new ManualClock(start) }),
    ),
  );
  const [def, alt] = started as [(typeof started)[number], (typeof started)[number]];
  return { def, alt, close: () => Promise.all(started.map((s) => s.fake.close())) };
}

export type Started = Awaited<ReturnType<typeof startBoth>>['def'];
