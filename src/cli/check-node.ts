// The first import of the `partner-equity` bin (tsup.config.ts adds it), for its effect alone: on a Node.js
// older than the SDK supports, print one line naming both versions and exit 1, before a command loads undici
// or msw and crashes with an error that names neither. Written synchronously: the line is out before exit.
import { writeSync } from 'node:fs';
import { unsupportedNodeMessage } from '../runtime/assert-supported-node.js';

const message = unsupportedNodeMessage();
if (message !== undefined) {
  writeSync(2, `partner-equity: ${message}\n`);
  process.exit(1);
}
