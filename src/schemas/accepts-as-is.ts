import type { z } from 'zod';

type Check = (value: unknown) => boolean;

// Per schema (the lazySchema proxy or any zod schema): its compiled check, or null when it has parts this
// module does not know (then zod always decides).
const compiled = new WeakMap<object, Check | null>();

/**
 * Whether `schema` accepts `value` exactly as it is, decided without running zod: `true` only when zod's
 * parse would succeed and give back a value equal to `value` (so the value itself can be used); `false`
 * means "ask zod" (it may still accept). A schema qualifies when it is built only from parts with nothing to
 * transform or refine: plain `string`, `number`, `boolean`, `null`, `unknown`, `enum`, `literal`,
 * `optional`, `nullable`, `array`, `union`, `record(string, …)` and objects that keep unknown keys
 * (`looseObject`). Anything else (checks, formats, defaults, transforms, stripping objects) leaves every
 * value to zod.
 *
 * The SDK's response schemas are of that kind, and a zod parse copies the whole body (its output is a new
 * object at every level): this check reads the body once and allocates nothing. A property test holds it to
 * zod's verdicts for every response schema.
 */
export function acceptsAsIs(schema: z.ZodType, value: unknown): boolean {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema) ?? null;
    compiled.set(schema, check);
  }
  return check?.(value) === true;
}

/** The parts of a zod schema's definition (`_zod.def`) the check reads. */
export interface ZodDef {
  type: string;
  checks?: unknown[];
  check?: unknown;
  format?: unknown;
  coerce?: boolean;
  discriminator?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
}

/** A schema's definition (building a lazy schema, as any read of it does). */
export function defOf(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

// A node with checks (`.min()`, `.refine()`), a string format (`z.url()`), an integer format or coercion.
function refined(def: ZodDef): boolean {
  return (
    (def.checks !== undefined && def.checks.length > 0) ||
    def.check !== undefined ||
    def.format !== undefined ||
    def.coerce === true
  );
}

function compile(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
  if (refined(def)) return undefined;
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'null':
      return (value) => value === null;
    case 'unknown':
    case 'any':
      return () => true;
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (!values.every((item) => typeof item === 'string')) return undefined;
      const allowed = new Set<unknown>(values);
      return (value) => allowed.has(value);
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return (value) => allowed.has(value);
    }
    case 'optional': {
      const inner = def.innerType === undefined ? undefined : compile(def.innerType);
      return inner && ((value) => value === undefined || inner(value));
    }
    case 'nullable': {
      const inner = def.innerType === undefined ? undefined : compile(def.innerType);
      return inner && ((value) => value === null || inner(value));
    }
    case 'array': {
      const element = def.element === undefined ? undefined : compile(def.element);
      return element && ((value) => Array.isArray(value) && value.every((item) => element(item)));
    }
    case 'union': {
      if (def.discriminator !== undefined) return undefined;
      const options = (def.options ?? []).map(compile);
      if (options.length === 0 || options.some((option) => option === undefined)) return undefined;
      const checks = options as Check[];
      return (value) => checks.some((option) => option(value));
    }
    case 'record':
      return compileRecord(def);
    case 'object':
      return compileObject(def);
    default:
      return undefined;
  }
}

// `record(string, V)`: a plain object whose every value V accepts (no symbol keys: zod refuses those).
function compileRecord(def: ZodDef): Check | undefined {
  if (def.keyType === undefined || def.valueType === undefined) return undefined;
  const key = defOf(def.keyType);
  if (key.type !== 'string' || refined(key)) return undefined;
  const item = compile(def.valueType);
  if (item === undefined) return undefined;
  return (value) => {
    if (!isPlainRecord(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
    for (const name in value) {
      if (Object.hasOwn(value, name) && !item(value[name])) return false;
    }
    return true;
  };
}

// An object that keeps unknown keys (catchall `unknown`): each field of the shape accepted where it is.
function compileObject(def: ZodDef): Check | undefined {
  if (def.shape === undefined || def.catchall === undefined) return undefined;
  const catchall = defOf(def.catchall);
  if (catchall.type !== 'unknown' && catchall.type !== 'any') return undefined;
  const fields: [string, Check][] = [];
  for (const [name, field] of Object.entries(def.shape)) {
    const check = compile(field);
    if (check === undefined) return undefined;
    fields.push([name, check]);
  }
  return (value) => {
    if (!isPlainRecord(value)) return false;
    for (const [name, check] of fields) if (!check(value[name])) return false;
    return true;
  };
}

// A plain (or null-prototype) object without an own `__proto__` key (zod's copy would treat it apart).
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, '__proto__');
}
