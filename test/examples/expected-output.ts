// What each runnable example must print. Read by test/examples/run-examples.test.ts (every example from
// source on Node, in the suite) and scripts/examples-on-runtime.ts (every example from the packed tarball on
// Bun and Deno, in scripts/consumer-check.sh), so the promise is the same on every runtime.

/** Each example file (relative to the repository root) and the lines its output must contain. */
export const EXAMPLE_OUTPUTS: [file: string, expected: RegExp[]][] = [
  [
    'examples/authenticate.ts',
    [
      /^public key to register: \{"kty":"OKP","crv":"Ed25519","x":"[\w-]{43}"\}$/m,
      /^authenticated; token info: \{.*"client_123".*\}$/m,
      /^an unregistered key is refused: 401 \w+$/m,
    ],
  ],
  [
    'examples/submit-and-poll-spv-request.ts',
    [
      /^submitted spvr_\w+ \(spv-standard@2025-06\)$/m,
      /^ {2}\S+ {2}pending-review$/m,
      /^ {2}\S+ {2}approved$/m,
      /^approved: SPV spv_\w+$/m,
      /^ {2}share class \S+: 2% fee, 20% carry$/m,
      /^re-run with the same key → the same request: true$/m,
    ],
  ],
  [
    'examples/import-investors-from-csv.ts',
    [
      /^read 12 investors from .*investors\.csv$/m,
      /^ {2}12\/12 rows answered \(9 ok, 3 failed\)$/m,
      /^ {2}inv-006: invalid_field on email: /m,
      /^ {2}inv-007: \w+ .*\(retryable\)/m,
      /^ {2}inv-009: \w+ on countryOfResidence: /m,
      /^retrying 1 row\(s\) whose failure was temporary\n {2}inv-007: \w+$/m,
      /^imported 10 of 12; fix and re-run the others$/m,
    ],
  ],
  [
    'examples/nightly-sync.ts',
    [
      /^log: investors\.create: the service refused bodies of \d+ bytes as too large; .*250 rows per request worked/m,
      /^investors: chunk 2 answered \(200 rows\)$/m,
      /^investors: 1 row\(s\) failed for a moment; sending them again\ninvestors: chunk 0 answered \(1 rows\)$/m,
      /^subscriptions: chunk 2 answered \(200 rows\)$/m,
      /^synced 1200 of 1200 investors and 1200 of 1200 subscriptions$/m,
    ],
  ],
  [
    'examples/testing/drive-the-mock.ts',
    [
      /^pending review: spvr_\w+$/m,
      /^approved spvr_\w+: SPV spv_\w+$/m,
      /^investor inv-1 → per_\w+, created \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m,
      /^webhooks go to http:\/\/127\.0\.0\.1:9\/webhooks \(standard-webhooks\); secret shown once: true$/m,
      /^snapshot: 1 SPV request\(s\), 1 SPV\(s\), 2 person\(s\)$/m,
    ],
  ],
  [
    'examples/upload-documents.ts',
    [
      /^refused before sending: file: not a PDF, JPEG, PNG or WEBP file/m,
      /^receipt before form: 409 \w+: /m,
      /^signed form on record: (http:\/\/127\.0\.0\.1:\d+)?\/files\/\S+\/signed-form\.pdf$/m,
      /^funding receipt on record: 25000\.00 EUR \(WIRE-2025-0042\)$/m,
    ],
  ],
  ...(['express', 'fastify', 'hono'] as const).map((framework): [string, RegExp[]] => [
    `examples/webhooks/${framework}.ts`,
    [
      new RegExp(`^\\[${framework}\\] spv_request\\.created: spvr_\\w+ is pending-review$`, 'm'),
      new RegExp(
        `^\\[${framework}\\] spv_request\\.completed: spvr_\\w+ → SPV (spv_\\w+|\\(not in the event\\))$`,
        'm',
      ),
      new RegExp(`^\\[${framework}\\] refused at verify: No webhook signature matches`, 'm'),
      new RegExp(`^\\[${framework}\\] forged delivery answered 400$`, 'm'),
      new RegExp(`^\\[${framework}\\] 2 deliveries acknowledged with a 2xx$`, 'm'),
    ],
  ]),
  [
    'examples/webhooks/nextjs/serve-with-fake.ts',
    [
      /^\[next\.js\] SPV (spv_\w+|\(not in the event\)) approved \(spvr_\w+\)$/m,
      /^\[next\.js\] handled: spv_request\.created, spv_request\.completed$/m,
    ],
  ],
];

/** The quickstart (its own test checks it line by line on Node; elsewhere these lines must appear). */
export const QUICKSTART_OUTPUT: RegExp[] = [
  /^1\. Key pair and registration$/m,
  /POST \/v1\/oauth2\/tokens → 201/,
  /webhook spv_request\.completed verified \(webhook-id msg_\w+\)/,
  /spvr_\w+ is approved: SPV spv_\w+/,
  /funding receipt uploaded: 25000\.00 EUR, WIRE-2025-0001/,
  /5 webhooks received, every one verified: spv_request\.created, spv_request\.completed, signed_subscription_form\.uploaded, funding_receipt\.uploaded, subscription\.completed/,
];
