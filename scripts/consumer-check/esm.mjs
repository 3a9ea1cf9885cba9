// The package as an ES module consumer sees it: the `import` condition must load the .js build.
import * as sdk from '@partner-equity/sdk';
import * as redisEntry from '@partner-equity/sdk/redis';
import * as testing from '@partner-equity/sdk/testing';
import * as webhooks from '@partner-equity/sdk/webhooks';
import { runRedis } from './redis-scenario.cjs';
import { run } from './scenario.cjs';

if (!import.meta.resolve('@partner-equity/sdk').endsWith('/dist/index.js')) {
  throw new Error(`ESM resolved ${import.meta.resolve('@partner-equity/sdk')}`);
}
await run(sdk, webhooks, testing, 'ESM');
await runRedis(sdk, redisEntry, testing, 'ESM');
