import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server.js';
import { leaksOfQuotedAssertion, QUOTES } from './assertion-quotes.js';

// Findings 4 and 5 (issue 36), both mechanisms on: the shape rule and the client's registry of its secrets.
const server = useTestServer();

describe('an assertion the token endpoint quotes back stays out of errors and logs', () => {
  for (const [how, quote] of Object.entries(QUOTES)) {
    it(`quoted ${how}`, async () => {
      const { leaks, assertions, message } = await leaksOfQuotedAssertion(server(), quote);
      expect(assertions).toBe(1);
      expect(leaks).toEqual([]);
      expect(message).toMatch(/^POST \/v1\/oauth2\/tokens → 400: .*\[REDACTED\]/);
    });
  }
});
