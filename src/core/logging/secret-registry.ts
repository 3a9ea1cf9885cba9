/** Values shorter than this are not registered: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** How many values one registry remembers (the oldest goes first): tokens rotate, old ones fade out. */
export const MAX_SECRETS = 32;

/**
 * The secret values one client knows (its tokens and last assertions), so that what a server quotes back
 * is redacted by value, not only by shape. Written a few times per token lifetime, read on error paths.
 */
export class SecretRegistry {
  // Private, so inspect and JSON of the registry (and of anything holding it) never list the values.
  // Each value also in every encoding the SDK sends it in (a form body, JSON, a URL), which is how a server
  // may quote it back.
  #values: string[] = [];

  /** Remembers `value` (and its encoded forms) until {@link MAX_SECRETS} newer values push it out. */
  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) return;
    const forms = new Set([
      value,
      encodeURIComponent(value),
      // `application/x-www-form-urlencoded`, as the token endpoint's body is sent (`~` is `%7E` there).
      new URLSearchParams({ v: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1),
    ]);
    for (const form of forms) {
      const at = this.#values.indexOf(form);
      if (at !== -1) this.#values.splice(at, 1);
      this.#values.push(form);
    }
    if (this.#values.length > MAX_SECRETS) this.#values.splice(0, this.#values.length - MAX_SECRETS);
  }

  /** `text` with every remembered value replaced by `replacement`. */
  replace(text: string, replacement = '[REDACTED]'): string {
    let out = text;
    // Newest first: a value contained in another (unlikely, harmless) is then replaced inside it too.
    for (let i = this.#values.length - 1; i >= 0; i -= 1) {
      const value = this.#values[i] as string;
      if (out.includes(value)) out = out.split(value).join(replacement);
    }
    return out;
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
