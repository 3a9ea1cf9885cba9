import { printable as t } from '../core/logging/printable.js';
import { DOCTOR_GROUPS, type DoctorFinding, type DoctorReport, type DoctorStatus } from './doctor-report.js';

const GROUP_TITLES = {
  connection: 'Connection',
  authentication: 'Authentication',
  contracts: 'Contracts',
  openapi: 'OpenAPI description',
  webhooks: 'Webhooks',
} as const;

const LABELS: Record<DoctorStatus, string> = {
  ok: 'ok',
  differs: 'DIFFERS',
  fails: 'FAILS',
  skipped: 'skipped',
};
const COLOURS: Record<DoctorStatus, number> = { ok: 32, differs: 33, fails: 31, skipped: 2 };
const IMPACT_COLOURS = { fails: 31, tolerated: 33, info: 2 } as const;

/** Options of {@link formatDoctorReport}. */
export interface FormatDoctorReportOptions {
  /** ANSI colours (the CLI sets it on a TTY without NO_COLOR). @default false */
  color?: boolean;
}

/** Findings of one operation with the same impact, place and message: their paths joined. */
function groupedFindings(
  findings: readonly DoctorFinding[],
): Map<string, { sdk: string; lines: DoctorFinding[] }> {
  const byOperation = new Map<string, { sdk: string; lines: DoctorFinding[] }>();
  for (const finding of findings) {
    const entry = byOperation.get(finding.operation) ?? { sdk: finding.sdk, lines: [] };
    const same = entry.lines.find(
      (line) =>
        line.impact === finding.impact && line.where === finding.where && line.message === finding.message,
    );
    if (same === undefined) entry.lines.push({ ...finding });
    else same.path = [same.path, finding.path].filter((path) => path !== '').join(', ');
    byOperation.set(finding.operation, entry);
  }
  return byOperation;
}

/**
 * The report as text, grouped like the checks run: one line per check (status, title, explanation), then
 * its fix, the service's words and probes, and for the OpenAPI comparison every difference by operation.
 * What the service said is shown with its control characters escaped, never sent to the terminal.
 *
 * @example
 * ```ts
 * const report = await client.doctor();
 * process.stdout.write(formatDoctorReport(report, { color: process.stdout.isTTY }));
 * ```
 */
export function formatDoctorReport(report: DoctorReport, options: FormatDoctorReportOptions = {}): string {
  const paint = (code: number, text: string) =>
    options.color === true ? `\u001b[${code}m${text}\u001b[0m` : text;
  const serviceChecked = report.checks.some((check) => check.group !== 'webhooks');
  const lines = [
    serviceChecked
      ? `Partner Equity doctor: ${t(report.baseUrl)} (responseValidation: ${report.responseValidation})`
      : 'Partner Equity doctor: webhook endpoint',
  ];
  for (const group of DOCTOR_GROUPS) {
    const checks = report.checks.filter((check) => check.group === group);
    if (checks.length === 0) continue;
    lines.push('', GROUP_TITLES[group]);
    for (const check of checks) {
      const label = paint(COLOURS[check.status], LABELS[check.status].padEnd(7));
      lines.push(`  ${label}  ${t(check.title)}: ${t(check.explanation)}`);
      if (check.fix !== undefined && check.status !== 'ok') lines.push(`           fix: ${t(check.fix)}`);
      for (const detail of check.details ?? []) lines.push(paint(2, `           · ${t(detail)}`));
      for (const [operation, entry] of groupedFindings(check.findings ?? [])) {
        lines.push(`           ${t(operation)}${entry.sdk === '' ? '' : `  (${t(entry.sdk)})`}`);
        for (const line of entry.lines) {
          const impact = paint(IMPACT_COLOURS[line.impact], line.impact.padEnd(9));
          const where = line.path === '' ? line.where : `${line.where} ${line.path}`;
          lines.push(`             ${impact} ${t(where)}: ${t(line.message)}`);
        }
      }
    }
  }
  const counts = (['fails', 'differs', 'ok', 'skipped'] as const)
    .map((status) => [status, report.checks.filter((check) => check.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(
      ([status, count]) =>
        `${count} ${{ fails: 'failing', differs: 'differing', ok: 'ok', skipped: 'skipped' }[status]}`,
    );
  lines.push(
    '',
    `${report.ok ? 'Nothing would fail' : 'Something would fail'}: ${counts.join(', ')}. Nothing was written on the service.`,
  );
  return `${lines.join('\n')}\n`;
}
