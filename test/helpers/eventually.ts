/**
 * `vi.waitFor` options for a condition that real I/O settles (a loopback request, a background renewal).
 * A hang detector, not a speed check: `vi.waitFor` gives up after 1 s by default, which a busy machine can
 * spend on one loopback round trip.
 */
export const EVENTUALLY = { timeout: 30_000, interval: 10 } as const;
