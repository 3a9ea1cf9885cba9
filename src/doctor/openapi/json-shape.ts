import { isRecord } from '../../core/is-record.js';
import { type DocumentBudget, resolvePointer } from './document-budget.js';

/** A JSON type a schema allows (`null` is kept apart, as {@link Shape.nullable}). */
export type ShapeKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

/** What a string may hold: the values an enum or `const` names, and whether others are allowed too. */
export interface StringBranch {
  kind: 'string';
  /** Values named by `enum` / `const`; empty when none is named. */
  values: string[];
  /** Any string is allowed (a plain `string` branch, or an open enum `anyOf: [enum, string]`). */
  open: boolean;
}

/** An object's documented fields. */
export interface ObjectBranch {
  kind: 'object';
  properties: Map<string, Shape>;
  required: Set<string>;
  /** Other fields are allowed (`additionalProperties` is not `false`). */
  open: boolean;
}

/** An array's items and the most items allowed. */
export interface ArrayBranch {
  kind: 'array';
  items: Shape;
  maxItems?: number | undefined;
}

type Branch = StringBranch | ObjectBranch | ArrayBranch | { kind: 'number' | 'integer' | 'boolean' };

/**
 * A JSON Schema (as OpenAPI 3.0/3.1 and `z.toJSONSchema` write them) reduced to what a comparison needs:
 * which JSON types a value may have, whether it may be `null`, and per type the enum values, fields or
 * items. `anyOf` / `oneOf` branches of one type are merged; `$ref`s are followed ({@link ShapeReader}).
 */
export interface Shape {
  /** Nothing is known (`{}`, `true`, an unresolvable `$ref`): anything may come. */
  any: boolean;
  nullable: boolean;
  branches: Map<ShapeKind, Branch>;
}

type Json = Record<string, unknown>;

const ANY: Shape = { any: true, nullable: true, branches: new Map() };
const MAX_DEPTH = 24;

/**
 * Reads {@link Shape}s out of one document (`root`), each schema node once: a `$ref` used a thousand times
 * is resolved and reduced once, a `$ref` back into a schema being read is `any` (a cycle), and every node
 * visited and every merge is charged to `budget`, which stops a document too costly to compare.
 */
export class ShapeReader {
  readonly #shapes = new Map<object, Shape>();
  readonly #reading = new Set<object>();

  constructor(
    readonly root: unknown,
    readonly budget: DocumentBudget,
  ) {}

  /** `value` with its `$ref`s followed (a few hops at most). */
  follow(value: unknown): unknown {
    for (let hops = 0; isRecord(value) && typeof value['$ref'] === 'string' && hops < 8; hops += 1) {
      this.budget.spend();
      value = resolvePointer(this.root, value['$ref']);
    }
    return value;
  }

  /** The {@link Shape} of a schema that is a document of its own (the SDK's JSON Schemas), on this budget. */
  sdkShape(schema: unknown): Shape {
    return new ShapeReader(schema, this.budget).shapeOf(schema);
  }

  /** The {@link Shape} of `schema`, a node of the document. */
  shapeOf(schema: unknown, depth = 0): Shape {
    this.budget.spend();
    if (depth > MAX_DEPTH || schema === true || !isRecord(schema)) return ANY;
    const known = this.#shapes.get(schema);
    if (known !== undefined) return known;
    if (this.#reading.has(schema)) return ANY;
    this.#reading.add(schema);
    try {
      const shape = this.#read(schema, depth);
      this.#shapes.set(schema, shape);
      return shape;
    } finally {
      this.#reading.delete(schema);
    }
  }

  #read(schema: Json, depth: number): Shape {
    if (typeof schema['$ref'] === 'string') {
      const target = resolvePointer(this.root, schema['$ref']);
      return target === undefined ? ANY : this.shapeOf(target, depth + 1);
    }
    const parts: Shape[] = [];
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = schema[key];
      if (Array.isArray(list) && list.length > 0) {
        parts.push(list.map((item) => this.shapeOf(item, depth + 1)).reduce((a, b) => this.union(a, b)));
      }
    }
    const own = this.#ownShape(schema, depth);
    if (own !== undefined) parts.push(own);
    const allOf = schema['allOf'];
    let shape = parts.length === 0 ? undefined : parts.reduce(intersectNullable);
    if (Array.isArray(allOf)) {
      for (const item of allOf) {
        const part = this.shapeOf(item, depth + 1);
        shape = shape === undefined ? part : this.#combine(shape, part);
      }
    }
    if (shape === undefined) return ANY;
    return schema['nullable'] === true ? { ...shape, nullable: true } : shape;
  }

  // The schema's own keywords (type, enum, const, properties, items), without its anyOf/oneOf/allOf.
  #ownShape(schema: Json, depth: number): Shape | undefined {
    const declared = schema['type'];
    let types = Array.isArray(declared) ? declared : typeof declared === 'string' ? [declared] : [];
    const named = 'const' in schema ? [schema['const']] : Array.isArray(schema['enum']) ? schema['enum'] : [];
    if (types.length === 0 && named.length > 0) types = [...new Set(named.map(jsonType))];
    if (types.length === 0 && ('properties' in schema || 'additionalProperties' in schema))
      types = ['object'];
    if (types.length === 0 && 'items' in schema) types = ['array'];
    if (types.length === 0) return undefined;
    const shape: Shape = { any: false, nullable: false, branches: new Map() };
    for (const type of types) {
      if (type === 'null') shape.nullable = true;
      else if (type === 'string') {
        const values = named.filter((value): value is string => typeof value === 'string');
        shape.branches.set('string', { kind: 'string', values, open: named.length === 0 });
      } else if (type === 'object') shape.branches.set('object', this.#objectBranch(schema, depth));
      else if (type === 'array') {
        const maxItems = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : undefined;
        shape.branches.set('array', {
          kind: 'array',
          items: this.shapeOf(schema['items'], depth + 1),
          maxItems,
        });
      } else if (type === 'number' || type === 'integer' || type === 'boolean') {
        shape.branches.set(type, { kind: type });
      }
    }
    if (named.includes(null)) shape.nullable = true;
    return shape;
  }

  #objectBranch(schema: Json, depth: number): ObjectBranch {
    const properties = new Map<string, Shape>();
    const given = schema['properties'];
    if (isRecord(given)) {
      for (const [name, property] of Object.entries(given))
        properties.set(name, this.shapeOf(property, depth + 1));
    }
    const required = new Set(
      Array.isArray(schema['required'])
        ? schema['required'].filter((name): name is string => typeof name === 'string')
        : [],
    );
    return { kind: 'object', properties, required, open: schema['additionalProperties'] !== false };
  }

  /** Either shape (`anyOf`): every type of both, fields of same-typed branches merged, required by both. */
  union(a: Shape, b: Shape): Shape {
    this.budget.spend();
    if (a === b) return a;
    if (a.any || b.any) return ANY;
    const branches = new Map(a.branches);
    for (const [kind, branch] of b.branches) {
      const mine = branches.get(kind);
      branches.set(kind, mine === undefined ? branch : this.#mergeBranch(mine, branch, 'union'));
    }
    return { any: false, nullable: a.nullable || b.nullable, branches };
  }

  /** Both shapes (`allOf`): fields of both, required by either. */
  #combine(a: Shape, b: Shape): Shape {
    this.budget.spend();
    if (a.any || a === b) return b;
    if (b.any) return a;
    const branches = new Map(a.branches);
    for (const [kind, branch] of b.branches) {
      const mine = branches.get(kind);
      branches.set(kind, mine === undefined ? branch : this.#mergeBranch(mine, branch, 'all'));
    }
    return { any: false, nullable: a.nullable && b.nullable, branches };
  }

  #mergeBranch(a: Branch, b: Branch, mode: 'union' | 'all'): Branch {
    const merge = (x: Shape, y: Shape) => (mode === 'union' ? this.union(x, y) : this.#combine(x, y));
    if (a.kind === 'string' && b.kind === 'string') {
      return { kind: 'string', values: [...new Set([...a.values, ...b.values])], open: a.open || b.open };
    }
    if (a.kind === 'array' && b.kind === 'array') {
      const limits = [a.maxItems, b.maxItems].filter((n) => n !== undefined);
      // Either branch: the larger limit (none if one has none); both: the smaller.
      const maxItems =
        mode === 'union'
          ? limits.length === 2
            ? Math.max(...limits)
            : undefined
          : limits.length > 0
            ? Math.min(...limits)
            : undefined;
      return { kind: 'array', items: merge(a.items, b.items), maxItems };
    }
    if (a.kind === 'object' && b.kind === 'object') {
      const properties = new Map(a.properties);
      for (const [name, shape] of b.properties) {
        const mine = properties.get(name);
        properties.set(name, mine === undefined ? shape : merge(mine, shape));
      }
      const required =
        mode === 'union'
          ? new Set([...a.required].filter((name) => b.required.has(name)))
          : new Set([...a.required, ...b.required]);
      return { kind: 'object', properties, required, open: a.open || b.open };
    }
    return a;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

// A schema with both `type` and `anyOf` allows what both allow; only nullability needs care here (a
// `type: 'object'` beside `anyOf: [X, {type: 'null'}]` is how some generators write a nullable object).
function intersectNullable(a: Shape, b: Shape): Shape {
  if (a.any) return b;
  if (b.any) return a;
  return a.branches.size >= b.branches.size
    ? { ...a, nullable: a.nullable || b.nullable }
    : { ...b, nullable: a.nullable || b.nullable };
}
