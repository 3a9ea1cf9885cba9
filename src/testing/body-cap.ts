import { HttpProblem } from './http-problem.js';
import { readBody } from './read-body.js';

const PAGE =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * A proxy's JSON body cap in front of the service (`maxBodyBytes`): a larger JSON body is answered 413
 * with an HTML page, as nginx answers one; a smaller one is handed on, read, to the service.
 */
export async function capJsonBody(
  request: Request,
  maxBytes: number | undefined,
): Promise<Request | Response> {
  const type = request.headers.get('content-type') ?? '';
  if (maxBytes === undefined || request.body === null || !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    return request;
  }
  try {
    const body = await readBody(request, maxBytes);
    const { method, headers, signal } = request;
    return new Request(request.url, { method, headers, body, signal });
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    return new Response(PAGE, { status: 413, headers: { 'content-type': 'text/html' } });
  }
}
