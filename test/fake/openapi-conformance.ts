// A small JSON Schema check (the subset zod's `toJSONSchema` emits) of a response body against the schema a
// served `/openapi.json` documents for its operation and status. Stricter than JSON Schema in one way, on
// purpose: a field the document does not name is reported even where `additionalProperties` allows it, so
// the test proves the document *describes* what is served, not merely tolerates it.

type Schema = Record<string, unknown>;
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, Schema> }>>;
  components: { schemas: Record<string, Schema> };
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function check(doc: Doc, schema: Schema, value: unknown, at: string, out: string[]): void {
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = doc.components.schemas[ref.replace('#/components/schemas/', '')];
    if (target === undefined) out.push(`${at}: unresolved ${ref}`);
    else check(doc, target, value, at, out);
    return;
  }
  const branches = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (branches !== undefined) {
    const results = branches.map((branch) => {
      const found: string[] = [];
      check(doc, branch, value, at, found);
      return found;
    });
    if (!results.some((found) => found.length === 0))
      out.push(...(results.sort((a, b) => a.length - b.length)[0] ?? []));
    return;
  }
  if ('const' in schema && schema['const'] !== value)
    out.push(`${at}: expected ${JSON.stringify(schema['const'])}`);
  const choices = schema['enum'] as unknown[] | undefined;
  if (choices !== undefined && !choices.includes(value))
    out.push(`${at}: ${JSON.stringify(value)} not in enum`);
  const type = schema['type'];
  if (type !== undefined) {
    const allowed = Array.isArray(type) ? (type as string[]) : [type as string];
    const actual = typeOf(value);
    if (!allowed.includes(actual) && !(actual === 'integer' && allowed.includes('number'))) {
      out.push(`${at}: ${actual}, expected ${allowed.join(' | ')}`);
      return;
    }
  }
  if (
    typeof value === 'string' &&
    typeof schema['pattern'] === 'string' &&
    !new RegExp(schema['pattern']).test(value)
  ) {
    out.push(`${at}: "${value}" does not match ${schema['pattern']}`);
  }
  if (Array.isArray(value)) {
    const items = schema['items'] as Schema | undefined;
    if (items !== undefined) {
      for (const [i, item] of value.entries()) check(doc, items, item, `${at}[${i}]`, out);
    }
    return;
  }
  if (typeOf(value) !== 'object') return;
  const object = value as Record<string, unknown>;
  const properties = schema['properties'] as Record<string, Schema> | undefined;
  for (const name of (schema['required'] as string[] | undefined) ?? []) {
    if (!(name in object)) out.push(`${at}.${name}: required, missing`);
  }
  const extra = schema['additionalProperties'] as Schema | boolean | undefined;
  for (const [name, field] of Object.entries(object)) {
    const declared = properties?.[name];
    if (declared !== undefined) check(doc, declared, field, `${at}.${name}`, out);
    else if (properties !== undefined) out.push(`${at}.${name}: served but not documented`);
    else if (typeof extra === 'object') check(doc, extra, field, `${at}.${name}`, out);
  }
}

/** The problems of `body` against what `doc` documents for `method path` → `status` (empty: conforms). */
export function conformance(
  doc: unknown,
  method: string,
  path: string,
  status: number,
  body: unknown,
): string[] {
  const typed = doc as Doc;
  const response = typed.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  if (response === undefined) return [`${method} ${path}: status ${status} not documented`];
  const content = response['content'] as Record<string, { schema: Schema }> | undefined;
  const schema = content?.['application/json']?.schema;
  if (schema === undefined) return [`${method} ${path} ${status}: no JSON schema`];
  const out: string[] = [];
  check(typed, schema, body, '$', out);
  return out;
}
