import { afterEach, expect, it } from 'vitest';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { expectedJourney, partnerJourney } from './scenario.js';

let fake: FakePartnerEquity;
afterEach(() => fake.close());

it('a partner journey over fake.listen() (real loopback socket, global fetch)', async () => {
  fake = new FakePartnerEquity();
  const { baseUrl } = await fake.listen();
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(await partnerJourney(fake, (url, init) => fetch(url, init))).toEqual(expectedJourney);
});
