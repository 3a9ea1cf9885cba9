/** Schema nodes one comparison may visit: the SDK's own document and the fake's need about a thousand. */
export const NODE_BUDGET = 100_000;

/** A document the doctor cannot compare as written: a malformed `$ref`, or one too costly to walk. */
export class OpenApiDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpenApiDocumentError';
  }
}

/** Counts the nodes a comparison visits, across every operation, and stops it past `limit`. */
export class DocumentBudget {
  #visited = 0;
  constructor(readonly limit = NODE_BUDGET) {}

  get visited(): number {
    return this.#visited;
  }

  /** One more node visited; throws {@link OpenApiDocumentError} past the limit. */
  spend(): void {
    this.#visited += 1;
    if (this.#visited > this.limit) {
      throw new OpenApiDocumentError(
        `comparing it visits more than ${this.limit.toLocaleString('en-US')} schema nodes (its $refs nest or fan out too far)`,
      );
    }
  }
}

const isContainer = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * Follows a local `$ref` (`#/components/schemas/X`, `#/$defs/X`, `#`) inside `root`: `undefined` when it
 * points elsewhere or at nothing; a pointer that is not valid JSON Pointer syntax throws.
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      const shown = ref.length > 80 ? `${ref.slice(0, 80)}…` : ref;
      throw new OpenApiDocumentError(`$ref ${JSON.stringify(shown)} is not a valid JSON pointer`);
    }
    if (!isContainer(node)) return undefined;
    node = Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node;
}
