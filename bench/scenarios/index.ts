import type { Scenario } from '../lib/result.js';
import { runColdStart } from './cold-start.js';
import { runRequestOverhead } from './request-overhead.js';
import { runWebhookBench } from './webhooks.js';

/** The suite, in issue 8's order. */
export const scenarios: Scenario[] = [
  { id: '1', title: 'request overhead', run: runRequestOverhead },
  { id: '3', title: 'webhook verification', run: runWebhookBench },
  { id: '6', title: 'cold start', run: runColdStart },
];
