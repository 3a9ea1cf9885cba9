import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { expectedJourney, partnerJourney } from './scenario.js';

// A partner's usual setup: MSW in-process, the fake's handlers, global fetch, unhandled requests fail.
const fake = new FakePartnerEquity();
const server = setupServer(...fake.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await fake.close();
});

it('the same partner journey through MSW setupServer(...fake.handlers) and global fetch', async () => {
  expect(fake.baseUrl).toBe('https://fake-partner-equity.test');
  expect(await partnerJourney(fake, (url, init) => fetch(url, init))).toEqual(expectedJourney);
  // No socket was involved: the fake never listened.
  expect(fake.baseUrl).toBe('https://fake-partner-equity.test');
});

it('the handlers answer only the fake’s own origin (anything else stays unhandled)', async () => {
  expect(
    await getResponse(fake.handlers, new Request('http://somewhere-else.test/v1/contracts')),
  ).toBeUndefined();
  const ours = await getResponse(fake.handlers, new Request('https://fake-partner-equity.test/v1/contracts'));
  expect(ours?.status).toBe(200);
});
