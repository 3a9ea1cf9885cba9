// The package as a CommonJS consumer sees it: the `require` condition must load the .cjs build.
const sdk = require('@partner-equity/sdk');
const webhooks = require('@partner-equity/sdk/webhooks');
const testing = require('@partner-equity/sdk/testing');
const redisEntry = require('@partner-equity/sdk/redis');
const { run } = require('./scenario.cjs');
const { runRedis } = require('./redis-scenario.cjs');

if (!require.resolve('@partner-equity/sdk').endsWith('/dist/index.cjs')) {
  throw new Error(`CJS resolved ${require.resolve('@partner-equity/sdk')}`);
}
run(sdk, webhooks, testing, 'CJS')
  .then(() => runRedis(sdk, redisEntry, testing, 'CJS'))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
