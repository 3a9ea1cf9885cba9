import type { ObjectBranch, Shape, ShapeKind, StringBranch } from './json-shape.js';

/**
 * One difference between what the SDK reads or sends and what a service describes, before it is judged
 * against the client's `responseValidation`: `breaks` when a value the service describes would not pass the
 * SDK's schema (or a request of the SDK would not pass the service's), `info` when the SDK copes.
 */
export interface ShapeDifference {
  kind: string;
  effect: 'breaks' | 'info';
  /** The field's path in the body (`documents[].status`); empty for the body itself. */
  path: string;
  message: string;
}

const MAX_DEPTH = 24;
const kindsOf = (shape: Shape) => [...shape.branches.keys()];
const describe = (kinds: readonly string[]) => (kinds.length === 0 ? 'nothing' : kinds.join(' or '));
const at = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);
const list = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');

/** The SDK branch that reads a value of `kind` (an integer is a number too). */
function reader(sdk: Shape, kind: ShapeKind) {
  return sdk.branches.get(kind) ?? (kind === 'integer' ? sdk.branches.get('number') : undefined);
}

/**
 * What the SDK would make of the response bodies `server` describes, read with the SDK's schema `sdk`:
 * values it refuses (`null`, another type, a value outside a closed enum, a required field that may be
 * absent) break; values of an open enum it does not name, fields it does not name, and fields it names that
 * the service does not describe are `info`. Where the SDK names nothing (a free-form object, a plain string)
 * it holds no expectation, and nothing is reported.
 */
export function compareResponse(sdk: Shape, server: Shape, path = '', depth = 0): ShapeDifference[] {
  if (sdk.any || server.any || depth > MAX_DEPTH) return [];
  const out: ShapeDifference[] = [];
  if (server.nullable && !sdk.nullable) {
    out.push({
      kind: 'nullable',
      effect: 'breaks',
      path,
      message: `may be null here; the SDK's schema expects ${describe(kindsOf(sdk))}`,
    });
  }
  const unread = kindsOf(server).filter((kind) => reader(sdk, kind) === undefined);
  if (unread.length > 0) {
    out.push({
      kind: 'type',
      effect: 'breaks',
      path,
      message: `is ${describe(unread)} here; the SDK's schema expects ${describe(kindsOf(sdk))}`,
    });
  }
  for (const [kind, branch] of server.branches) {
    const mine = reader(sdk, kind);
    if (mine === undefined) continue;
    if (branch.kind === 'string' && mine.kind === 'string') out.push(...enumValues(mine, branch, path));
    if (branch.kind === 'array' && mine.kind === 'array') {
      out.push(...compareResponse(mine.items, branch.items, `${path}[]`, depth + 1));
    }
    if (branch.kind === 'object' && mine.kind === 'object') out.push(...fields(mine, branch, path, depth));
  }
  return out;
}

function enumValues(sdk: StringBranch, server: StringBranch, path: string): ShapeDifference[] {
  if (sdk.values.length === 0) return []; // the SDK names no value: any string is what it expects
  if (server.open && server.values.length === 0 && !sdk.open) {
    return [
      {
        kind: 'enum-value',
        effect: 'breaks',
        path,
        message: `may be any string here; the SDK accepts only ${list(sdk.values)}`,
      },
    ];
  }
  const unnamed = server.values.filter((value) => !sdk.values.includes(value));
  if (unnamed.length === 0) return [];
  return [
    sdk.open
      ? {
          kind: 'enum-value',
          effect: 'info',
          path,
          message: `values the SDK does not name: ${list(unnamed)} (they arrive as plain strings: handle them)`,
        }
      : {
          kind: 'enum-value',
          effect: 'breaks',
          path,
          message: `values the SDK's schema refuses: ${list(unnamed)}`,
        },
  ];
}

function fields(sdk: ObjectBranch, server: ObjectBranch, path: string, depth: number): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  // A service that names no field of an open object says "any object": nothing to compare field by field.
  if (server.properties.size === 0 && server.open) return out;
  for (const [name, mine] of sdk.properties) {
    const theirs = server.properties.get(name);
    const where = at(path, name);
    if (theirs === undefined) {
      out.push(
        sdk.required.has(name)
          ? {
              kind: 'missing-field',
              effect: 'breaks',
              path: where,
              message: "required by the SDK's schema, not described by this service",
            }
          : {
              kind: 'unsent-field',
              effect: 'info',
              path: where,
              message: 'typed by the SDK, not described by this service (expect it absent)',
            },
      );
      continue;
    }
    if (sdk.required.has(name) && !server.required.has(name)) {
      out.push({
        kind: 'optional-field',
        effect: 'breaks',
        path: where,
        message: "may be absent here; the SDK's schema requires it",
      });
    }
    out.push(...compareResponse(mine, theirs, where, depth + 1));
  }
  // Fields the SDK does not name are kept on the object, untyped; said only where the SDK names some.
  if (sdk.properties.size === 0) return out;
  for (const [name] of server.properties) {
    if (sdk.properties.has(name)) continue;
    const required = server.required.has(name);
    out.push({
      kind: 'extra-field',
      effect: 'info',
      path: at(path, name),
      message: `described by this service${required ? ' (required)' : ''}, not named by the SDK (kept on the object, untyped)`,
    });
  }
  return out;
}

/**
 * What a service would make of the request bodies the SDK sends (`sdk`, the SDK's own schema of what it
 * sends) against the service's schema `server`: a field the service requires that the SDK cannot send (its
 * object is closed and does not name it) breaks, and so does a field of a type the service does not take.
 * Fields the SDK passes through from the caller (open objects) are the caller's to give; the service's
 * own bounds and formats are its to judge, as the SDK invents none.
 */
export function compareRequest(sdk: Shape, server: Shape, path = '', depth = 0): ShapeDifference[] {
  if (sdk.any || server.any || depth > MAX_DEPTH) return [];
  const sent = kindsOf(sdk);
  const taken = sent.filter(
    (kind) => server.branches.has(kind) || (kind === 'integer' && server.branches.has('number')),
  );
  if (sent.length > 0 && taken.length === 0) {
    return [
      {
        kind: 'type',
        effect: 'breaks',
        path,
        message: `the SDK sends ${describe(sent)}; this service expects ${describe(kindsOf(server))}`,
      },
    ];
  }
  const out: ShapeDifference[] = [];
  const mine = sdk.branches.get('object');
  const theirs = server.branches.get('object');
  if (mine?.kind === 'object' && theirs?.kind === 'object') {
    for (const name of theirs.required) {
      const sdkField = mine.properties.get(name);
      const serverField = theirs.properties.get(name);
      if (sdkField === undefined) {
        if (!mine.open) {
          out.push({
            kind: 'required-field',
            effect: 'breaks',
            path: at(path, name),
            message: 'this service requires this field; the SDK does not send it',
          });
        }
        continue;
      }
      if (serverField !== undefined)
        out.push(...compareRequest(sdkField, serverField, at(path, name), depth + 1));
    }
  }
  const myItems = sdk.branches.get('array');
  const theirItems = server.branches.get('array');
  if (myItems?.kind === 'array' && theirItems?.kind === 'array') {
    out.push(...compareRequest(myItems.items, theirItems.items, `${path}[]`, depth + 1));
  }
  return out;
}
