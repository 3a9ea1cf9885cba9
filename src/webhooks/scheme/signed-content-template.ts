// A scheme's signed content is a template: literal text around `{id}`, `{timestamp}` and exactly one
// `{body}`. Signing, verifying and scheme checks all read templates through this module.
import type { WebhookSignedContent } from './webhook-scheme.js';

const PLACEHOLDERS = ['{id}', '{timestamp}', '{body}'];
const PRINTABLE = /^[\x20-\x7e]{1,128}$/;
const BODY = '{body}';
/** Placeholders of any text: next to another placeholder, where one ends and the next starts is unknowable. */
const MOVABLE: readonly (string | undefined)[] = ['{id}', '{body}'];

/**
 * The names `signedContent` took before templates, each with the template it stands for. Deprecated: the
 * scheme check maps them here, and nowhere else.
 */
export const LEGACY_SIGNED_CONTENT: Readonly<Record<string, WebhookSignedContent>> = Object.freeze({
  body: '{body}',
  'timestamp.body': '{timestamp}.{body}',
  'id.timestamp.body': '{id}.{timestamp}.{body}',
});

/** A legacy name as its template; any other value unchanged (it is checked afterwards). */
export function fromLegacySignedContent(value: unknown): unknown {
  return typeof value === 'string' && Object.hasOwn(LEGACY_SIGNED_CONTENT, value)
    ? LEGACY_SIGNED_CONTENT[value]
    : value;
}

/** Why `template` cannot be a scheme's signed content, for the `invalid_scheme` message; `undefined` if it can. */
export function signedContentIssue(template: unknown): string | undefined {
  const example = "e.g. '{id}.{timestamp}.{body}' or 'v0:{timestamp}:{body}'";
  if (typeof template !== 'string') return `signedContent must be a template string, ${example}`;
  const shown = `'${template.slice(0, 60)}'`;
  if (!PRINTABLE.test(template)) return `signedContent must be 1-128 printable ASCII characters, ${example}`;
  const pieces = template.split(/(\{[^{}]*\})/);
  const named = pieces.filter((_, i) => i % 2 === 1);
  const unknown = named.find((p) => !PLACEHOLDERS.includes(p));
  if (unknown !== undefined) {
    return `signedContent ${shown} has unknown placeholder '${unknown.slice(0, 40)}' (known: ${PLACEHOLDERS.join(', ')})`;
  }
  if (pieces.some((p, i) => i % 2 === 0 && /[{}]/.test(p))) {
    return `signedContent ${shown} has a '{' or '}' outside a placeholder`;
  }
  const bodies = named.filter((p) => p === BODY).length;
  if (bodies !== 1) {
    const what = bodies === 0 ? 'names no {body}' : 'names {body} more than once';
    return `signedContent ${shown} ${what}: the raw body must be signed, exactly once (${example})`;
  }
  // `{id}{body}`: moving the boundary (id `a1`, body `2…` for id `a`, body `12…`) keeps the signature valid
  // under a new id, so de-duplication would take a replay for a new delivery.
  for (let i = 1; i + 2 < pieces.length; i += 2) {
    const [left, between, right] = [pieces[i], pieces[i + 1], pieces[i + 2]];
    if (between === '' && (MOVABLE.includes(left) || MOVABLE.includes(right))) {
      return `signedContent ${shown} puts ${left} right next to ${right}: separate them with a literal, such as '.' (${example})`;
    }
  }
  return undefined;
}

/** Whether a scheme's signed content covers its message id or its timestamp. */
export function signs(scheme: { readonly signedContent: string }, what: 'id' | 'timestamp'): boolean {
  return scheme.signedContent.includes(`{${what}}`);
}

/** The text signed before and after the body for one delivery. */
export interface SignedContentAround {
  prefix: string;
  suffix: string;
}

/** Splits a checked template once; the returned function fills in a delivery's id and timestamp. */
export function compileSignedContent(
  template: WebhookSignedContent,
): (id: string, timestamp: string) => SignedContentAround {
  const at = template.indexOf(BODY);
  const before = template.slice(0, at).split(/(\{id\}|\{timestamp\})/);
  const after = template.slice(at + BODY.length).split(/(\{id\}|\{timestamp\})/);
  const fill = (parts: string[], id: string, timestamp: string): string =>
    parts.length === 1
      ? (parts[0] as string)
      : parts.map((p) => (p === '{id}' ? id : p === '{timestamp}' ? timestamp : p)).join('');
  return (id, timestamp) => ({ prefix: fill(before, id, timestamp), suffix: fill(after, id, timestamp) });
}
