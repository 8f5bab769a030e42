import fs from "node:fs";
import path from "node:path";
import type { GradableCompetition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { writeFileAtomic } from "../core/atomic.js";
import { type GradingInputs, gradeToReport, loadGradingInputs } from "./grade.js";
import { type CompetitionReport, type GradingSummary, fileTimestamp, summarize } from "./report.js";

/** A JSONL line that could not be graded at all (bad JSON, unknown or unprepared competition). */
export interface LineError {
  line: number;
  competition_id: string | null;
  submission_path: string | null;
  reason: string;
}

export interface JsonlGradingResult {
  summary: GradingSummary & { errors: LineError[] };
  reportPath: string;
}

/** One entry of a submissions JSONL file, with the line it came from. */
interface Entry {
  line: number;
  competitionId: string;
  submissionPath: string;
}

/** Parse the submissions file; malformed lines become errors instead of stopping the rest. */
export function parseSubmissionsJsonl(file: string): { entries: Entry[]; errors: LineError[] } {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`Cannot read submissions file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const entries: Entry[] = [];
  const errors: LineError[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith("//")) return;
    const bad = (reason: string, cid: string | null = null, sp: string | null = null) =>
      errors.push({ line: i + 1, competition_id: cid, submission_path: sp, reason: `${file}, line ${i + 1}: ${reason}` });
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch (e) {
      return bad(`not valid JSON (${(e as Error).message})`);
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
      return bad(`expected an object {"competition_id": ..., "submission_path": ...}`);
    }
    const rec = obj as Record<string, unknown>;
    const cid = typeof rec.competition_id === "string" ? rec.competition_id : null;
    const sp = typeof rec.submission_path === "string" ? rec.submission_path : null;
    if (cid === null) return bad(`"competition_id" must be a string`, null, sp);
    if (sp === null) return bad(`"submission_path" must be a string`, cid, null);
    entries.push({ line: i + 1, competitionId: cid, submissionPath: sp });
  });
  return { entries, errors };
}

/**
 * Grade every submission listed in a JSONL file and write `<outputDir>/<timestamp>_grading_report.json`
 * atomically. Problems with one line (or one competition's data) are recorded and never stop the others.
 * `lookup` finds a competition by id with its grader (the registry's loadCompetition), rejecting an unknown one.
 */
export async function gradeJsonl(
  file: string,
  outputDir: string,
  dataDir: string,
  lookup: (id: string) => Promise<GradableCompetition>,
  onProgress?: (done: number, total: number) => void,
): Promise<JsonlGradingResult> {
  const { entries, errors } = parseSubmissionsJsonl(file);
  const inputsCache = new Map<string, GradingInputs | Error>();
  const reports: CompetitionReport[] = [];
  for (const [k, entry] of entries.entries()) {
    try {
      const competition = await lookup(entry.competitionId);
      let inputs = inputsCache.get(competition.id);
      if (!inputs) {
        try {
          inputs = loadGradingInputs(competition, dataDir);
        } catch (e) {
          inputs = e as Error;
        }
        inputsCache.set(competition.id, inputs);
      }
      if (inputs instanceof Error) throw inputs;
      reports.push(gradeToReport(competition, entry.submissionPath, inputs));
    } catch (e) {
      errors.push({
        line: entry.line,
        competition_id: entry.competitionId,
        submission_path: entry.submissionPath,
        reason: `${file}, line ${entry.line}: ${(e as Error).message}`,
      });
    }
    onProgress?.(k + 1, entries.length);
  }
  errors.sort((a, b) => a.line - b.line);
  const summary = { ...summarize(reports), errors };
  fs.mkdirSync(outputDir, { recursive: true });
  const reportPath = path.join(outputDir, `${fileTimestamp()}_grading_report.json`);
  writeFileAtomic(reportPath, JSON.stringify(summary, null, 2) + "\n");
  return { summary, reportPath };
}
