import { isRecord } from '../../core/is-record.js';
import { compareRequest, compareResponse, type ShapeDifference } from './compare-shapes.js';
import type { ShapeReader } from './json-shape.js';
import { SDK_CHUNK_SIZE, type SdkOperation } from './sdk-expectations.js';
import type { ServerOperation } from './server-operation.js';

function mediaTypeMatches(documented: string, sent: string): boolean {
  const [type, subtype] = documented.split(';')[0]!.trim().toLowerCase().split('/');
  const [sentType, sentSubtype] = sent.split('/');
  return (type === '*' || type === sentType) && (subtype === '*' || subtype === sentSubtype);
}

/**
 * How the service would take the body the SDK sends: its media type, the fields it requires that the SDK
 * cannot send, and the rows per request of the chunked bulk calls.
 */
export function requestDifferences(
  sdk: SdkOperation,
  server: ServerOperation,
  doc: ShapeReader,
): ShapeDifference[] {
  const body = doc.follow(server.operation['requestBody']);
  if (!isRecord(body)) return [];
  if (sdk.request === undefined) {
    return body['required'] === true
      ? [
          {
            kind: 'request-body',
            effect: 'breaks',
            path: '',
            message: 'this service requires a request body; the SDK sends none',
          },
        ]
      : [];
  }
  const content = isRecord(body['content']) ? body['content'] : {};
  const match = Object.entries(content).find(([type]) => mediaTypeMatches(type, sdk.request!.contentType));
  if (match === undefined) {
    const accepted = Object.keys(content).join(', ') || 'nothing';
    return [
      {
        kind: 'content-type',
        effect: 'breaks',
        path: '',
        message: `this service takes ${accepted}; the SDK sends ${sdk.request.contentType}`,
      },
    ];
  }
  const schema = isRecord(match[1]) ? match[1]['schema'] : undefined;
  if (schema === undefined) return [];
  const theirs = doc.shapeOf(schema);
  const out = compareRequest(doc.sdkShape(sdk.request.schema), theirs);
  const array = sdk.request.chunkedArray;
  const field = array === undefined ? undefined : theirs.branches.get('object');
  const rows = field?.kind === 'object' ? field.properties.get(array!)?.branches.get('array') : undefined;
  const limit = rows?.kind === 'array' ? rows.maxItems : undefined;
  if (limit !== undefined && limit !== SDK_CHUNK_SIZE) {
    out.push(
      limit < SDK_CHUNK_SIZE
        ? {
            kind: 'row-limit',
            effect: 'breaks',
            path: array!,
            message: `this service takes at most ${limit} rows per request; the SDK sends up to ${SDK_CHUNK_SIZE} (pass chunkSize: ${limit})`,
          }
        : {
            kind: 'row-limit',
            effect: 'info',
            path: array!,
            message: `this service takes up to ${limit} rows per request; the SDK sends ${SDK_CHUNK_SIZE} (chunkSize: ${limit} would send fewer requests)`,
          },
    );
  }
  return out;
}

/** What the SDK would make of each 2xx JSON body the service describes, with the status it came with. */
export function* responseDifferences(
  sdk: SdkOperation,
  server: ServerOperation,
  doc: ShapeReader,
): Generator<[string, ShapeDifference]> {
  if (sdk.response === undefined) return;
  const responses = isRecord(server.operation['responses']) ? server.operation['responses'] : {};
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    const response = doc.follow(raw);
    const content = isRecord(response) && isRecord(response['content']) ? response['content'] : {};
    const json = Object.entries(content).find(
      ([type]) => /^application\/(.+\+)?json\b/i.test(type) || type === '*/*',
    );
    const schema = json !== undefined && isRecord(json[1]) ? json[1]['schema'] : undefined;
    if (schema === undefined) continue;
    for (const difference of compareResponse(doc.sdkShape(sdk.response), doc.shapeOf(schema))) {
      yield [status, difference];
    }
  }
}
