/** Values shorter than this are not registered: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** How many values one registry remembers (the oldest goes first): tokens rotate, old ones fade out. */
export const MAX_SECRETS = 64;

/** The shortest cut of a remembered value that is redacted wherever it appears on its own. */
export const MIN_FRAGMENT_LENGTH = 16;

// Runs of the characters tokens and assertions are made of (both base64 alphabets, `.` and `~`); a cut of a
// secret is looked for inside such runs only, so the scan is linear in the text.
const tokenRun = /[A-Za-z0-9_\-+/=.~]{16,}/g;

/**
 * The secret values one client knows (its tokens and last assertions), so that what a server quotes back
 * is redacted by value, not only by shape. Written a few times per token lifetime, read on error paths.
 */
export class SecretRegistry {
  // Private, so inspect and JSON of the registry (and of anything holding it) never list the values.
  // Each value also in every encoding the SDK sends it in (a form body, JSON, a URL), which is how a server
  // may quote it back.
  #values: string[] = [];
  // Every MIN_FRAGMENT_LENGTH-character cut of the values (rebuilt when a value comes: a few times a token).
  #fragments = new Set<string>();

  /** Remembers `value` (and its encoded forms) until {@link MAX_SECRETS} newer values push it out. */
  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) return;
    const forms = new Set([
      value,
      encodeURIComponent(value),
      // `application/x-www-form-urlencoded`, as the token endpoint's body is sent (`~` is `%7E` there).
      new URLSearchParams({ v: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1),
      // Standard base64, as a server may re-encode a base64url signature before quoting it.
      value.replace(/-/g, '+').replace(/_/g, '/'),
    ]);
    // A form seen before moves to the newest place.
    this.#values = [...this.#values.filter((known) => !forms.has(known)), ...forms].slice(-MAX_SECRETS);
    this.#fragments = new Set(
      this.#values.flatMap((known) =>
        Array.from({ length: known.length - MIN_FRAGMENT_LENGTH + 1 }, (_, at) =>
          known.slice(at, at + MIN_FRAGMENT_LENGTH),
        ),
      ),
    );
  }

  /**
   * `text` with every remembered value replaced by `replacement`, and every cut of one (a middle piece, a
   * copy truncated with `…`) of at least {@link MIN_FRAGMENT_LENGTH} characters.
   */
  replace(text: string, replacement = '[REDACTED]'): string {
    let out = text;
    // Newest first: a value contained in another (unlikely, harmless) is then replaced inside it too.
    for (const value of this.#values.toReversed()) out = out.replaceAll(value, () => replacement);
    return out.replace(tokenRun, (run) => replaceCuts(run, this.#fragments, replacement));
  }

  /** How many values (and URL-encoded forms) are remembered. */
  get size(): number {
    return this.#values.length;
  }

  toJSON(): { size: number } {
    return { size: this.#values.length };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SecretRegistry { size: ${this.#values.length} }`;
  }
}

// `run` with each stretch covered by known cuts replaced once (overlapping cuts join into one stretch).
function replaceCuts(run: string, fragments: Set<string>, replacement: string): string {
  const covered = new Uint8Array(run.length);
  for (let end = MIN_FRAGMENT_LENGTH; end <= run.length; end += 1) {
    if (fragments.has(run.slice(end - MIN_FRAGMENT_LENGTH, end)))
      covered.fill(1, end - MIN_FRAGMENT_LENGTH, end);
  }
  let out = '';
  for (let at = 0; at < run.length; at += 1) {
    if (covered[at] === 0) out += run[at];
    else if (at === 0 || covered[at - 1] === 0) out += replacement;
  }
  return out;
}
