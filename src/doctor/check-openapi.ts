import { OPERATIONS } from '../resources/operations.js';
import { type DoctorCheck, statusOfFindings } from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { type ProbeAnswer, probe, unreadableBody } from './http-probe.js';
import { compareOpenApi } from './openapi/compare-openapi.js';
import { sdkOperations } from './openapi/sdk-expectations.js';

const PATH = OPERATIONS['system.openapi'].route;

/**
 * `/openapi.json` (or the `document` given) compared with what the SDK reads and sends; every difference a
 * finding with its impact under the client's `responseValidation`.
 */
export async function checkOpenApi(
  target: DoctorTarget,
  options: { document?: unknown; hasCredentials: boolean; signal?: AbortSignal | undefined },
): Promise<DoctorCheck> {
  const check = { id: 'openapi', group: 'openapi' as const, title: 'OpenAPI description vs the SDK' };
  let document = options.document;
  let source = 'the document given';
  if (document === undefined) {
    let answer: ProbeAnswer;
    try {
      answer = await probe(target.requester, { method: 'GET', path: PATH, signal: options.signal });
    } catch (error) {
      const reason = unreadableBody(error);
      if (reason === undefined) throw error;
      return {
        ...check,
        status: 'fails',
        explanation: `GET ${PATH}: ${reason}; nothing compared`,
        fix: 'Save the document and pass it with --openapi-file (client.doctor({ openapi }))',
      };
    }
    if (answer.status !== 200) {
      return {
        ...check,
        status: 'differs',
        explanation: `GET ${PATH} answered ${answer.status}: nothing to compare (the spec says the service serves it)`,
        fix: 'Ask the service team where the machine-readable description is, or pass it with --openapi-file',
      };
    }
    document = answer.body;
    source = `GET ${PATH}`;
  }
  const comparison = compareOpenApi(document, {
    responseValidation: target.responseValidation,
    hasCredentials: options.hasCredentials,
    defaultHeaders: new Set(Object.keys(target.defaultHeaders).map((name) => name.toLowerCase())),
  });
  if (!comparison.comparable) {
    const explanation = `${source}: ${comparison.reason}; nothing compared`;
    return comparison.fails
      ? { ...check, status: 'fails', explanation, fix: 'Ask the service team to correct its description' }
      : { ...check, status: 'differs', explanation };
  }
  const { findings } = comparison;
  const count = (impact: string) => findings.filter((finding) => finding.impact === impact).length;
  const status = statusOfFindings(findings);
  const operations = sdkOperations().length;
  if (status === 'ok') {
    return {
      ...check,
      status,
      explanation: `${source} (OpenAPI ${comparison.version}) describes the ${operations} operations the SDK calls as it reads and sends them`,
      findings,
    };
  }
  const [fails, tolerated, info] = [count('fails'), count('tolerated'), count('info')];
  const fix =
    fails > 0
      ? "Each 'fails' line says what to change (defaultHeaders, chunkSize…), or what to raise with the service team"
      : tolerated > 0
        ? `With responseValidation '${target.responseValidation}' those calls return the body as sent: code that reads those fields must cope`
        : undefined;
  return {
    ...check,
    status,
    explanation: `${source} (OpenAPI ${comparison.version}) differs from what the SDK expects: ${fails} would fail, ${tolerated} tolerated, ${info} informational`,
    fix,
    findings,
  };
}
