/** Disqualification: a run flagged by an integrity check keeps its score but loses its medals, with the reason recorded. */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import type { CompetitionReport } from "../grading/report.js";
import { writeFileAtomic } from "../core/atomic.js";
import { describeSkip, readRegularFile } from "../io/untrusted.js";

/** Where a run's integrity results live. */
export function integrityDir(runDir: string): string {
  return path.join(runDir, "integrity");
}

/** A grading report or a disqualification record is a few KiB; anything near this is not one. */
export const MAX_RECORD_FILE_BYTES = 16 * 1024 * 1024;

/**
 * `dir`, made a real folder: created when missing; anything else at its name (a link, a file) is
 * renamed to `<dir>.set-aside[-N]` first, so what is written there cannot land elsewhere.
 */
export function realDirectory(dir: string): string {
  let st: fs.Stats | null = null;
  try {
    st = fs.lstatSync(dir);
  } catch {
    st = null;
  }
  if (st?.isDirectory()) return dir;
  if (st) {
    let aside = `${dir}.set-aside`;
    for (let i = 2; fs.existsSync(aside) || isLink(aside); i++) aside = `${dir}.set-aside-${i}`;
    fs.renameSync(dir, aside);
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The text of a record file through no link; null when missing; a UserError when something else is at its name or it is too large. */
function readRecordText(file: string): string | null {
  const r = readRegularFile(file, MAX_RECORD_FILE_BYTES);
  if ("skipped" in r) {
    if (r.skipped === "missing") return null;
    throw new UserError(`${file} is ${describeSkip(r.skipped)}`);
  }
  if (r.truncated) throw new UserError(`${file} is larger than ${MAX_RECORD_FILE_BYTES} bytes (${r.size}): not a record the harness wrote`);
  return r.bytes.toString("utf8");
}

function parseRecord(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
}

/** The record of a disqualification (integrity/disqualified.json). */
export interface Disqualification {
  reasons: string[];
  at: string;
}

/** The run's disqualification, or null; a UserError when the record is there but is not one. */
export function readDisqualification(runDir: string): Disqualification | null {
  const file = path.join(integrityDir(runDir), "disqualified.json");
  const text = readRecordText(file);
  if (text === null) return null;
  const data = parseRecord(text, file) as Partial<Disqualification> | null;
  if (!data || !Array.isArray(data.reasons) || !data.reasons.every((r) => typeof r === "string")) {
    throw new UserError(`${file} is not a disqualification record (expected {"reasons": [...], "at": ...})`);
  }
  return { reasons: data.reasons, at: typeof data.at === "string" ? data.at : "" };
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
 * so nothing is lost and a later `--disqualify` never stacks on an already rewritten report. A
 * grading_report.json that is not a regular file (a link, a FIFO) is neither read nor rewritten:
 * `mlebench report` grades such a run afresh and applies the record.
 */
export function disqualify(runDir: string, reason: string): Disqualification {
  const dir = realDirectory(integrityDir(runDir));
  const earlier = readDisqualification(runDir);
  const reasons = earlier?.reasons.includes(reason) ? earlier.reasons : [...(earlier?.reasons ?? []), reason];
  const record: Disqualification = { reasons, at: new Date().toISOString() };
  const reportFile = path.join(runDir, "grading_report.json");
  const graded = path.join(dir, "grading_report.graded.json");
  const current = readRegularFile(reportFile, MAX_RECORD_FILE_BYTES);
  if (!("skipped" in current)) {
    if (current.truncated) throw new UserError(`${reportFile} is larger than ${MAX_RECORD_FILE_BYTES} bytes (${current.size}): not a grading report`);
    let originalText = readRecordText(graded);
    if (originalText === null) {
      originalText = current.bytes.toString("utf8");
      writeFileAtomic(graded, originalText);
    }
    const original = parseRecord(originalText, graded) as CompetitionReport;
    writeFileAtomic(reportFile, JSON.stringify(applyDisqualification(original, record), null, 2) + "\n");
  }
  writeFileAtomic(path.join(dir, "disqualified.json"), JSON.stringify(record, null, 2) + "\n");
  return record;
}
