/** Plain-text rendering of a leakage report for terminals and logs. */
import type { LeakageReport } from "./types.js";

/** A report as text: a summary line, then one line per finding with its examples indented below. */
export function formatLeakageReport(report: LeakageReport): string {
  const count = (s: string) => report.findings.filter((f) => f.severity === s).length;
  const c = report.checked;
  const lines = [
    `${report.competition}: ${report.leaks ? "LEAKS" : "no leaks"} (${count("leak")} leak, ${count("warning")} warning, ${count("info")} info); ` +
      `${c.publicFiles} public and ${c.privateFiles} private files, ${c.csvFiles.length} public CSVs read, ` +
      `id ${c.idColumn ?? "-"}, targets ${c.targets.map((t) => t.name).join(", ") || "-"}`,
  ];
  for (const f of report.findings) {
    lines.push(`  [${f.severity}] ${f.kind}: ${f.message}`);
    for (const e of f.examples) lines.push(`      ${e}`);
  }
  for (const s of c.skipped) lines.push(`  [skipped] ${s.file}: ${s.reason}`);
  return lines.join("\n");
}
