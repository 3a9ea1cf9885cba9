import type { Route } from './route.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `GET /docs`: a self-contained HTML page (no CDN scripts, so it works offline) listing every operation
 * with its method, path and summary, and linking the OpenAPI document for interactive tools.
 */
export function docsPage(routes: Route[]): string {
  const rows = routes
    .filter((route) => route.hidden !== true)
    .map(
      (route) =>
        `<tr><td><code>${route.method}</code></td><td><code>${escapeHtml(route.path)}</code></td>` +
        `<td>${escapeHtml(route.doc.summary)}</td><td>${route.auth === 'bearer' ? 'Bearer' : '—'}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner Equity API (fake) — docs</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}td,th{padding:.3rem .6rem;text-align:left;border-bottom:1px solid #ddd}</style>
</head>
<body>
<h1>Partner Equity API</h1>
<p>Version 0.1.0, served by the fake API of <code>@partner-equity/sdk/testing</code>.
Machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>What it does</th><th>Auth</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body>
</html>
`;
}
