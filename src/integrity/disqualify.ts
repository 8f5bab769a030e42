/** Disqualification: a run flagged by an integrity check keeps its score but loses its medals, with the reason recorded. */
import fs from "node:fs";
import path from "node:path";
import type { CompetitionReport } from "../grading/report.js";
import { writeFileAtomic } from "../io/atomic.js";

/** Where a run's integrity results live. */
export function integrityDir(runDir: string): string {
  return path.join(runDir, "integrity");
}

/** The record of a disqualification (integrity/disqualified.json). */
export interface Disqualification {
  reasons: string[];
  at: string;
}

/** The run's disqualification, or null. */
export function readDisqualification(runDir: string): Disqualification | null {
  const file = path.join(integrityDir(runDir), "disqualified.json");
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, "utf8")) as Disqualification;
}

/** `report` with no medal and the reasons in `disqualified_reason` (score and validity unchanged). */
export function applyDisqualification(report: CompetitionReport, d: Disqualification): CompetitionReport & { disqualified_reason: string } {
  return {
    ...report,
    any_medal: false,
    gold_medal: false,
    silver_medal: false,
    bronze_medal: false,
    disqualified_reason: d.reasons.join("; "),
  };
}

/**
 * Disqualify a run: record the reason (added to any earlier ones) and, when the run is graded, rewrite
 * grading_report.json without medals. The report as graded is kept once as integrity/grading_report.graded.json,
 * so nothing is lost and a later `--disqualify` never stacks on an already rewritten report.
 */
export function disqualify(runDir: string, reason: string): Disqualification {
  const dir = integrityDir(runDir);
  fs.mkdirSync(dir, { recursive: true });
  const earlier = readDisqualification(runDir);
  const reasons = earlier?.reasons.includes(reason) ? earlier.reasons : [...(earlier?.reasons ?? []), reason];
  const record: Disqualification = { reasons, at: new Date().toISOString() };
  const reportFile = path.join(runDir, "grading_report.json");
  const graded = path.join(dir, "grading_report.graded.json");
  if (fs.existsSync(reportFile)) {
    if (!fs.existsSync(graded)) writeFileAtomic(graded, fs.readFileSync(reportFile, "utf8"));
    const original = JSON.parse(fs.readFileSync(graded, "utf8")) as CompetitionReport;
    writeFileAtomic(reportFile, JSON.stringify(applyDisqualification(original, record), null, 2) + "\n");
  }
  writeFileAtomic(path.join(dir, "disqualified.json"), JSON.stringify(record, null, 2) + "\n");
  return record;
}
