import { isRecord } from '../../core/is-record.js';
import type { DoctorFinding } from '../doctor-report.js';
import { type ComparisonContext, compareOperation } from './compare-operation.js';
import { DocumentBudget, OpenApiDocumentError } from './document-budget.js';
import { ShapeReader } from './json-shape.js';
import { operationKey, type SdkOperation, sdkOperations } from './sdk-expectations.js';
import type { ServerOperation } from './server-operation.js';

export type { ComparisonContext };

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/**
 * The outcome of comparing a document: the differences, or why the document could not be compared
 * (`fails` when the document is broken or too costly to walk, rather than of another kind).
 */
export type OpenApiComparison =
  | { comparable: true; version: string; findings: DoctorFinding[] }
  | { comparable: false; reason: string; fails?: true };

function serverOperations(doc: Json): Map<string, ServerOperation> {
  const out = new Map<string, ServerOperation>();
  const paths = isRecord(doc['paths']) ? doc['paths'] : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isRecord(operation)) out.set(operationKey(method, path), { path, method, operation, pathItem });
    }
  }
  return out;
}

const segments = (route: string) => route.split('/').filter((part) => part !== '');

/** A documented path of the same method that differs from `route` in one segment: likely a rename. */
function renamedAs(sdk: SdkOperation, documented: ServerOperation[]): string | undefined {
  const mine = segments(sdk.route.replace(/\{[^}]*\}/g, '{}'));
  return documented.find((candidate) => {
    if (candidate.method.toUpperCase() !== sdk.method) return false;
    const theirs = segments(candidate.path.replace(/\{[^}]*\}/g, '{}'));
    return theirs.length === mine.length && theirs.filter((part, i) => part !== mine[i]).length === 1;
  })?.path;
}

/**
 * Compares a service's `/openapi.json` with what the SDK reads and sends (its zod schemas and the
 * `OPERATIONS` table): every operation the SDK calls must be described, with no requirement the SDK does
 * not meet, and responses the SDK's schemas read. Each difference has an impact under `context`.
 *
 * @example
 * ```ts
 * const result = compareOpenApi(await client.system.openapi(), { responseValidation: 'warn', hasCredentials: true, defaultHeaders: new Set() });
 * if (result.comparable) for (const f of result.findings) console.log(f.impact, f.operation, f.path, f.message);
 * ```
 */
export function compareOpenApi(doc: unknown, context: ComparisonContext): OpenApiComparison {
  if (!isRecord(doc)) return { comparable: false, reason: 'the body is not a JSON object' };
  if (typeof doc['swagger'] === 'string') {
    return { comparable: false, reason: `a Swagger ${doc['swagger']} document (OpenAPI 3.x is compared)` };
  }
  if (typeof doc['openapi'] !== 'string' || !/^3\./.test(doc['openapi']) || !isRecord(doc['paths'])) {
    return { comparable: false, reason: 'not an OpenAPI 3.x document (no "openapi": "3.x" and "paths")' };
  }
  try {
    return { comparable: true, version: doc['openapi'], findings: findingsOf(doc, context) };
  } catch (error) {
    if (error instanceof OpenApiDocumentError)
      return { comparable: false, reason: error.message, fails: true };
    throw error;
  }
}

function findingsOf(doc: Json, context: ComparisonContext): DoctorFinding[] {
  const reader = new ShapeReader(doc, new DocumentBudget());
  const documented = serverOperations(doc);
  const matched = new Set<string>();
  const findings: DoctorFinding[] = [];
  for (const sdk of sdkOperations()) {
    const key = operationKey(sdk.method, sdk.route);
    const server = documented.get(key);
    if (server === undefined) {
      const renamed = renamedAs(
        sdk,
        [...documented.values()].filter((op) => !isSdkOperation(op)),
      );
      findings.push({
        impact: 'fails',
        kind: 'missing-operation',
        operation: `${sdk.method} ${sdk.route}`,
        sdk: sdk.sdk,
        where: 'operation',
        path: '',
        message:
          `this service does not describe ${sdk.method} ${sdk.route}: ${sdk.sdk} would get 404 or 405` +
          (renamed === undefined ? '' : ` (it describes ${sdk.method} ${renamed}: renamed?)`),
      });
      continue;
    }
    matched.add(key);
    findings.push(...compareOperation(sdk, server, reader, context));
  }
  for (const [key, server] of documented) {
    if (matched.has(key)) continue;
    findings.push({
      impact: 'info',
      kind: 'unknown-operation',
      operation: `${server.method.toUpperCase()} ${server.path}`,
      sdk: '',
      where: 'operation',
      path: '',
      message: 'described by this service; the SDK does not call it',
    });
  }
  return findings;
}

function isSdkOperation(server: ServerOperation): boolean {
  const key = operationKey(server.method, server.path);
  return sdkOperations().some((sdk) => operationKey(sdk.method, sdk.route) === key);
}
