import type { Scenario } from '../lib/result.js';
import { runBulk } from './bulk.js';
import { runColdStart } from './cold-start.js';
import { runFirstAnswer } from './first-answer.js';
import { runImportCsv } from './import-csv.js';
import { runOverNetwork } from './over-network.js';
import { runRequestOverhead } from './request-overhead.js';
import { runSlowLink } from './slow-link.js';
import { runTokenManager } from './token-manager.js';
import { runTracingOverhead } from './tracing-overhead.js';
import { runUnderALimit } from './under-a-limit.js';
import { runUploads } from './uploads.js';
import { runWebhooks } from './webhooks.js';

/** The suite, in issue 8's order, then issue 25's, 29's, 30's, 34's, 35's and 48's scenarios. */
export const scenarios: Scenario[] = [
  { id: '1', title: 'request overhead', run: runRequestOverhead },
  { id: '2', title: 'token manager', run: runTokenManager },
  { id: '3', title: 'webhook verification', run: runWebhooks },
  { id: '4', title: 'uploads', run: runUploads },
  { id: '5', title: 'bulk investors', run: runBulk },
  { id: '6', title: 'cold start', run: runColdStart },
  { id: '7', title: 'over a network', run: runOverNetwork },
  { id: '8', title: 'CSV import', run: runImportCsv },
  { id: '9', title: 'tracing overhead', run: runTracingOverhead },
  { id: '10', title: 'over a slow link', run: runSlowLink },
  { id: '11', title: 'under a limit', run: runUnderALimit },
  { id: '12', title: 'first answer', run: runFirstAnswer },
];
