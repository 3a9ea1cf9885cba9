import { WebhookVerificationError } from '../webhook-verification-error.js';
import { DEFAULT_WEBHOOK_SCHEME, WEBHOOK_SCHEMES } from './presets.js';
import { fromLegacySignedContent, signedContentIssue, signs } from './signed-content-template.js';
import {
  SCHEME_FIELDS,
  SIGNATURE_SEPARATORS,
  type WebhookScheme,
  type WebhookSchemeInput,
  type WebhookSchemePreset,
} from './webhook-scheme.js';

const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const PREFIX = /^[\x21-\x7e]{0,16}$/;
const ENUMS = {
  signatureEncoding: ['base64', 'hex'],
  secretEncoding: ['whsec', 'base64', 'raw'],
} as const;
const resolved = new WeakSet<object>();
/** A scheme's fields before they are checked. */
type Scheme = Record<keyof WebhookScheme, unknown>;

function isPreset(value: unknown): value is WebhookSchemePreset {
  return typeof value === 'string' && Object.hasOwn(WEBHOOK_SCHEMES, value);
}

const presetList = Object.keys(WEBHOOK_SCHEMES).join(', ');

/**
 * Checks a scheme once and returns it complete and frozen: a preset name, a preset with overrides
 * (`{ preset, ...fields }`) or a full description. Every problem is named in one error.
 *
 * @throws {WebhookVerificationError} `invalid_scheme`, listing each bad field.
 * @example
 * ```ts
 * resolveWebhookScheme('github').signatureHeader; // 'x-hub-signature-256'
 * resolveWebhookScheme({ preset: 'stripe', signatureHeader: 'X-PE-Signature' }).signatureHeader; // 'x-pe-signature'
 * ```
 */
export function resolveWebhookScheme(input: WebhookSchemeInput | undefined): WebhookScheme {
  if (input === undefined) return DEFAULT_WEBHOOK_SCHEME;
  if (typeof input === 'object' && input !== null && resolved.has(input)) return input as WebhookScheme;
  if (typeof input === 'string') {
    if (isPreset(input)) return WEBHOOK_SCHEMES[input];
    throw invalid([`unknown preset '${(input as string).slice(0, 40)}' (presets: ${presetList})`]);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid([`a scheme is a preset name (${presetList}) or an object`]);
  }
  const issues: string[] = [];
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (key !== 'preset' && !(SCHEME_FIELDS as readonly string[]).includes(key)) {
      issues.push(`unknown field '${key.slice(0, 40)}'`);
    }
  }
  let base: WebhookScheme | undefined;
  if (given['preset'] !== undefined) {
    if (isPreset(given['preset'])) base = WEBHOOK_SCHEMES[given['preset']];
    else issues.push(`preset must be one of ${presetList}`);
  }
  const pick = (field: (typeof SCHEME_FIELDS)[number], fallback: unknown): unknown =>
    given[field] !== undefined ? given[field] : base !== undefined ? base[field] : fallback;
  const scheme = {
    name: pick('name', 'custom'),
    idHeader: lower(pick('idHeader', null)),
    timestampHeader: lower(pick('timestampHeader', null)),
    timestampPrefix: pick('timestampPrefix', null),
    signatureHeader: lower(pick('signatureHeader', undefined)),
    signaturePrefix: pick('signaturePrefix', ''),
    signatureSeparator: pick('signatureSeparator', null),
    signatureEncoding: pick('signatureEncoding', undefined),
    signedContent: fromLegacySignedContent(pick('signedContent', undefined)),
    secretEncoding: pick('secretEncoding', undefined),
  };
  check(scheme, issues);
  if (issues.length > 0) throw invalid(issues);
  const out = Object.freeze(scheme) as WebhookScheme;
  resolved.add(out);
  return out;
}

function lower(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

function check(s: Scheme, issues: string[]): void {
  if (typeof s.name !== 'string' || !/^[\x20-\x7e]{1,64}$/.test(s.name)) {
    issues.push('name must be 1-64 printable ASCII characters');
  }
  for (const field of ['idHeader', 'timestampHeader', 'signatureHeader'] as const) {
    const value = s[field];
    if (value === null && field !== 'signatureHeader') continue;
    if (value === undefined) issues.push(`${field} is required`);
    else if (typeof value !== 'string' || !HEADER_NAME.test(value)) {
      issues.push(`${field} must be an HTTP header name (1-64 token characters)`);
    }
  }
  const headers = [s.idHeader, s.timestampHeader, s.signatureHeader].filter((h) => typeof h === 'string');
  if (new Set(headers).size !== headers.length)
    issues.push('idHeader, timestampHeader and signatureHeader must differ');
  for (const [field, values] of Object.entries(ENUMS)) {
    const value = s[field as keyof typeof ENUMS];
    if (value === undefined) issues.push(`${field} is required`);
    else if (!(values as readonly unknown[]).includes(value)) {
      issues.push(`${field} must be one of ${values.map((v) => `'${v}'`).join(', ')}`);
    }
  }
  const separator = s.signatureSeparator;
  if (separator !== null && !(SIGNATURE_SEPARATORS as readonly unknown[]).includes(separator)) {
    issues.push(`signatureSeparator must be ' ', ',' or null`);
  }
  if (typeof s.signaturePrefix !== 'string' || !PREFIX.test(s.signaturePrefix)) {
    issues.push('signaturePrefix must be 0-16 visible ASCII characters');
  } else if (typeof separator === 'string' && s.signaturePrefix.includes(separator)) {
    issues.push('signaturePrefix must not contain signatureSeparator');
  }
  if (s.signedContent === undefined) issues.push('signedContent is required');
  else {
    const issue = signedContentIssue(s.signedContent);
    if (issue !== undefined) issues.push(issue);
    else checkSigned(s as Scheme & { signedContent: string }, issues);
  }
  checkTimestampPrefix(s, issues);
}

/** The headers a valid template names must exist, and a timestamp must be signed if it is sent. */
function checkSigned(s: Scheme & { signedContent: string }, issues: string[]): void {
  const template = `signedContent '${s.signedContent.slice(0, 60)}'`;
  if (signs(s, 'id') && s.idHeader === null) issues.push(`${template} needs an idHeader`);
  const places = (s.timestampHeader !== null ? 1 : 0) + (s.timestampPrefix !== null ? 1 : 0);
  if (signs(s, 'timestamp')) {
    if (places !== 1) issues.push(`${template} needs exactly one of timestampHeader, timestampPrefix`);
  } else if (places !== 0) {
    issues.push(`${template} signs no timestamp: set timestampHeader and timestampPrefix to null`);
  }
}

function checkTimestampPrefix(s: Scheme, issues: string[]): void {
  const prefix = s.timestampPrefix;
  if (prefix === null) return;
  if (typeof prefix !== 'string' || prefix === '' || !PREFIX.test(prefix)) {
    issues.push('timestampPrefix must be 1-16 visible ASCII characters, or null');
    return;
  }
  if (s.signatureSeparator === null) issues.push('timestampPrefix needs a signatureSeparator');
  else if (prefix.includes(s.signatureSeparator as string)) {
    issues.push('timestampPrefix must not contain signatureSeparator');
  }
  const sig = s.signaturePrefix;
  if (typeof sig === 'string' && sig !== '' && (sig.startsWith(prefix) || prefix.startsWith(sig))) {
    issues.push('timestampPrefix and signaturePrefix must not start one another');
  }
}

function invalid(issues: string[]): WebhookVerificationError {
  return new WebhookVerificationError('invalid_scheme', `Invalid webhook scheme: ${issues.join('; ')}.`);
}
