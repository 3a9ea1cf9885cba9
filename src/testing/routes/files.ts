import { HttpProblem } from '../http-problem.js';
import { defineRoute, type Route } from '../route.js';

/**
 * `GET /files/{file_id}/{filename}` — the fake's stand-in for the document URLs an upload returns. Not part
 * of the spec (hidden from `/openapi.json`); the unguessable id is the credential, like a signed URL.
 */
export const fileRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/files/{file_id}/{filename}',
    auth: 'none',
    hidden: true,
    doc: {
      operationId: 'downloadFile',
      summary: 'Download an uploaded document',
      tag: 'Files',
      responses: {},
    },
    run: (ctx) => {
      const file = ctx.services.state.files.get(ctx.params['file_id'] ?? '');
      if (file === undefined || file.filename !== ctx.params['filename']) {
        throw new HttpProblem(404, 'not_found', 'No such file');
      }
      return { status: 200, raw: { body: file.bytes, contentType: file.contentType } };
    },
  }),
];
