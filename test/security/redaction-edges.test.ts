import { describe, expect, it } from 'vitest';
import { printable } from '../../src/core/logging/printable.js';
import {
  MASKED,
  MAX_KEPT_TEXT,
  MAX_REDACTED_BODY,
  REDACTED,
  redact,
  redactHeaders,
  redactText,
} from '../../src/core/logging/redact.js';
import { MIN_SECRET_LENGTH, SecretRegistry } from '../../src/core/logging/secret-registry.js';

// What an error or a log line shows at the edges of each redaction rule (issue 46: the code that guards a
// secret is mutation-tested as the `redaction` group).

const SIGNATURE = 'q3Vt8_Zx-LmN0pQrS4tUvWxYz12AbCdEfGhIjKlMnOp_7-rStUvWx';

describe('cuts of a remembered value', () => {
  const secrets = new SecretRegistry();
  secrets.add(SIGNATURE);

  it('redacts a cut at the start, in the middle and at the end of the value, each alone in its text', () => {
    expect(secrets.replace(`a ${SIGNATURE.slice(0, 16)} b`)).toBe(`a ${REDACTED} b`);
    expect(secrets.replace(`a ${SIGNATURE.slice(10, 30)} b`)).toBe(`a ${REDACTED} b`);
    expect(secrets.replace(`a ${SIGNATURE.slice(-16)}`)).toBe(`a ${REDACTED}`);
    expect(secrets.replace(`${SIGNATURE.slice(-17, -1)} b`)).toBe(`${REDACTED} b`);
  });

  it('keeps a cut of 15 characters, and what stands around a cut in the same run', () => {
    expect(secrets.replace(`a ${SIGNATURE.slice(5, 20)} b`)).toBe(`a ${SIGNATURE.slice(5, 20)} b`);
    expect(secrets.replace(`sig=${SIGNATURE.slice(0, 20)}&next=1`)).toBe(`sig=${REDACTED}&next=1`);
  });

  it('replaces two cuts in one run apart, and overlapping or adjacent cuts once', () => {
    const first = SIGNATURE.slice(0, 16);
    const second = SIGNATURE.slice(30, 46);
    expect(secrets.replace(`x${first}Z==Z${second}y`)).toBe(`x${REDACTED}Z==Z${REDACTED}y`);
    expect(secrets.replace(`${first}${second}`)).toBe(REDACTED);
    expect(secrets.replace(`${SIGNATURE.slice(0, 24)}`)).toBe(REDACTED);
  });

  it('finds the standard-base64 form and the form-encoded one whole', () => {
    const standard = SIGNATURE.replace(/-/g, '+').replace(/_/g, '/');
    expect(secrets.replace(`sig ${standard}==`)).toBe(`sig ${REDACTED}==`);
    const tilde = new SecretRegistry();
    tilde.add('pe_rt_abc~def!');
    expect(tilde.replace('refresh_token=pe_rt_abc%7Edef%21&x=1')).toBe(`refresh_token=${REDACTED}&x=1`);
    expect(tilde.replace('"pe_rt_abc~def!"')).toBe(`"${REDACTED}"`);
  });

  it(`registers a value of exactly ${MIN_SECRET_LENGTH} characters, not one of ${MIN_SECRET_LENGTH - 1}`, () => {
    const short = new SecretRegistry();
    short.add('12345678');
    short.add('abcdefg');
    expect(short.replace('x 12345678 abcdefg')).toBe(`x ${REDACTED} abcdefg`);
    expect(short.size).toBe(1);
  });

  it('a value added again moves to the newest place instead of taking a second one', () => {
    const again = new SecretRegistry();
    again.add('tokenone1');
    again.add('tokentwo2');
    again.add('tokenone1');
    expect(again.size).toBe(2);
  });

  it('with nothing remembered, leaves text as it is', () => {
    expect(new SecretRegistry().replace(`keep ${SIGNATURE}`)).toBe(`keep ${SIGNATURE}`);
  });
});

describe('shapes', () => {
  it('leaves an eyJ with no dot after it, or only one, as it is', () => {
    expect(redactText('x eyJhbGciOiJ9 y')).toBe('x eyJhbGciOiJ9 y');
    expect(redactText('a.b eyJhbGciOiJ9.eyJzdWIiOiJ9 y')).toBe('a.b eyJhbGciOiJ9.eyJzdWIiOiJ9 y');
  });

  it('redacts credential headers by name', () => {
    expect(
      redactHeaders({
        'Proxy-Authorization': 'Basic Zm9vOmJhcg==',
        'x-api-key': 'k-1234567',
        'webhook-signature': 'v1,abc',
        cookie: 'a=1',
        accept: 'application/json',
      }),
    ).toEqual({
      'Proxy-Authorization': REDACTED,
      'x-api-key': REDACTED,
      'webhook-signature': REDACTED,
      cookie: REDACTED,
      accept: 'application/json',
    });
    expect(redact(new Headers({ authorization: 'Bearer x', accept: 'text/plain' }))).toEqual({
      authorization: REDACTED,
      accept: 'text/plain',
    });
  });
});

describe('long values and bodies', () => {
  it(`keeps a value of exactly ${MAX_KEPT_TEXT} characters whole, and cuts a longer one there`, () => {
    const exact = 'a'.repeat(MAX_KEPT_TEXT);
    expect(redact({ v: exact })).toEqual({ v: exact });
    const long = `${'b'.repeat(MAX_KEPT_TEXT)}tail`;
    expect(redact({ v: long })).toEqual({
      v: `${'b'.repeat(MAX_KEPT_TEXT)}… [cut: ${long.length} characters in all]`,
    });
  });

  it(`reads a JSON body of exactly ${MAX_REDACTED_BODY} characters field by field, a longer one as text`, () => {
    const body = (length: number) => {
      const head = '{"password":"hunter2-secret","pad":"';
      return `${head}${'x'.repeat(length - head.length - 2)}"}`;
    };
    const read = redact(body(MAX_REDACTED_BODY)) as string;
    expect(read.startsWith(`{"password":"${REDACTED}","pad":"xxx`)).toBe(true);
    const excerpt = redact(body(MAX_REDACTED_BODY + 1)) as string;
    expect(excerpt.startsWith('{"password":"hunter2-secret"')).toBe(true);
    expect(excerpt.endsWith(`… [cut: ${MAX_REDACTED_BODY + 1} characters in all]`)).toBe(true);
  });

  it('reads JSON with whitespace around it, and a JSON array', () => {
    expect(redact('  {"password":"p1"}\n')).toBe(`{"password":"${REDACTED}"}`);
    expect(redact('[{"token":"t1"},{"ok":1}]')).toBe(`[{"token":"${REDACTED}"},{"ok":1}]`);
    expect(redact('[not json')).toBe('[not json');
  });

  it('cuts nesting deeper than 20 levels, in objects and in arrays', () => {
    let object: unknown = 'leaf';
    let array: unknown = 'leaf';
    for (let i = 0; i < 22; i += 1) {
      object = { a: object };
      array = [array];
    }
    const depthOf = (value: unknown): number => {
      let depth = 0;
      let current = value;
      while (typeof current === 'object' && current !== null) {
        current = Array.isArray(current) ? current[0] : (current as { a: unknown }).a;
        depth += 1;
      }
      expect(current).toBe('[…]');
      return depth;
    };
    expect(depthOf(redact(object))).toBe(21);
    expect(depthOf(redact(array))).toBe(21);
  });

  it('keeps null, numbers and booleans, and masks only present personal data', () => {
    expect(redact({ a: null, n: 1, t: true, u: undefined })).toEqual({
      a: null,
      n: 1,
      t: true,
      u: undefined,
    });
    expect(
      redact({ email: null, firstName: undefined, lastName: 'Doe' }, { maskPersonalData: true }),
    ).toEqual({ email: null, firstName: undefined, lastName: MASKED });
  });
});

describe('form bodies', () => {
  it('reads a whole form, and only a whole one', () => {
    expect(redact('a=1&b=2&token=xyz123')).toBe(`a=1&b=2&token=${REDACTED}`);
    expect(redact('see a=b')).toBe('see a=b');
    expect(redact('a=b then more')).toBe('a=b then more');
    expect(redact('plain text')).toBe('plain text');
  });

  it('masks personal data in a form only when asked', () => {
    expect(redact('email=a%40b.example&x=1', { maskPersonalData: true })).toBe(`email=${MASKED}&x=1`);
    expect(redact('email=someone&x=1')).toBe('email=someone&x=1');
  });
});

describe('printable', () => {
  it('escapes the last C0 character as \\x1f and DEL as a JSON escape; keeps a space', () => {
    expect(printable('a\u001fb\u007fc d')).toBe('a\\x1fb\\u007fc d');
  });
});
