import { describe, expect, it, vi } from 'vitest';
import { redactText } from '../../src/core/logging/redact.js';
import { useTestServer } from '../helpers/test-server.js';
import { leaksOfQuotedAssertion, QUOTES } from './assertion-quotes.js';

// Finding 4 (issue 36): the JWT shape rule is enough on its own. The client's registry of its secrets is
// replaced by one that remembers nothing, so only the shape rule stands between the assertion and the error.
vi.mock('../../src/core/logging/secret-registry.js', async (original) => {
  const actual = await original<typeof import('../../src/core/logging/secret-registry.js')>();
  class ForgetfulRegistry extends actual.SecretRegistry {
    override add(): void {}
  }
  return { ...actual, SecretRegistry: ForgetfulRegistry };
});

const server = useTestServer();

describe('with no registry, the JWT shape rule alone', () => {
  it('keeps an assertion quoted URL-encoded after assertion%3D out of errors and logs', async () => {
    const { leaks, assertions } = await leaksOfQuotedAssertion(
      server(),
      QUOTES['URL-encoded after assertion%3D'],
    );
    expect(assertions).toBe(1);
    expect(leaks).toEqual([]);
  });

  it('finds a JWT after any character, and leaves what is not one', () => {
    const jwt = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjIn0.c2lnbmF0dXJlX29mX3RoZV9hc3NlcnRpb24';
    for (const before of ['assertion%3D', 'x', '9', '_', '-', '.', 'a.b.', '"', ' ', '']) {
      expect(redactText(`${before}${jwt}&next=1`), before).toBe(`${before}[REDACTED]&next=1`);
    }
    expect(redactText(`token ${jwt}.`)).toBe('token [REDACTED].');
    expect(redactText('eyJ only, eyJa.b, eyJa..b and v1.2.3')).toBe('eyJ only, eyJa.b, eyJa..b and v1.2.3');
  });
});
