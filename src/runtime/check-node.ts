// The first import of every built entry point (tsup.config.ts adds it), for its effect alone: on a Node.js
// older than the SDK supports, importing the SDK fails here with one line naming both versions, before
// undici or msw are evaluated and crash with an error that names neither.
import { assertSupportedNode } from './assert-supported-node.js';

assertSupportedNode();
