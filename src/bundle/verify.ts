/**
 * Checking a result bundle: every file against the hash bundle.json gives it, bundle.json against
 * its signature, each grading report against the table, and each submission re-graded against
 * local answers, so a reader can tell whether the claimed table is reproduced and, when it is not,
 * which file or run says otherwise.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KeyObject } from "node:crypto";
import { UserError } from "../core/errors.js";
import { getCompetition, loadGrader } from "../competitions/registry.js";
import { gradeToReport, loadGradingInputs } from "../grading/grade.js";
import { extractTarGz } from "../io/tar.js";
import { dataInfo } from "../runner/manifest-facts.js";
import {
  BUNDLE_FILE,
  BundleSchema,
  checkSignature,
  claimedTable,
  keyId,
  readBundledReport,
  SIGNATURE_FILE,
  SignatureSchema,
  type Bundle,
  type ClaimedRun,
} from "./bundle.js";
import { readRunManifestIfAny } from "../results/manifest.js";

/** Options of {@link verifyBundle}. */
export interface VerifyOptions {
  archive: string;
  dataDir: string;
  /** When given, the bundle must be signed by this key. */
  key?: KeyObject;
  /** Bounds on extraction. */
  maxBytes?: number;
  maxEntries?: number;
}

/** One run's claim next to what re-grading gave. */
export interface RunCheck {
  group: string;
  run_id: string;
  agent_id: string;
  competition_id: string;
  claimed: { score: number | null; any_medal: boolean; valid_submission: boolean };
  regraded: { score: number | null; any_medal: boolean; valid_submission: boolean } | null;
  verdict: "reproduced" | "differs" | "not verified";
  detail: string | null;
  /** Set when the local data differ from the data the run's manifest records. */
  data_note: string | null;
}

/** What a verification found. */
export interface VerifyResult {
  archive: string;
  ok: boolean;
  /** Files whose content, presence or listing is not what bundle.json says, one line each. */
  file_problems: string[];
  signature: { signed: boolean; valid: boolean | null; key_id: string | null; expected_key_id: string | null };
  runs: RunCheck[];
  /** The table bundle.json claims, and the one re-grading gives. */
  claimed_table: Bundle["table"];
  reproduced_table: Bundle["table"];
  table_reproduced: boolean;
  /** Problems that are not about one file or run (a claimed table that does not follow from its runs, say). */
  problems: string[];
}

const sameScore = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)));

function compareFiles(bundle: Bundle, extracted: Map<string, { bytes: number; sha256: string }>): string[] {
  const problems: string[] = [];
  for (const [p, want] of Object.entries(bundle.files)) {
    const got = extracted.get(p);
    if (!got) problems.push(`${p}: listed in ${BUNDLE_FILE} but missing from the archive`);
    else if (got.sha256 !== want.sha256 || got.bytes !== want.bytes) {
      problems.push(`${p}: changed (sha256 ${got.sha256}, ${got.bytes} bytes; ${BUNDLE_FILE} says ${want.sha256}, ${want.bytes} bytes)`);
    }
  }
  for (const p of extracted.keys()) {
    if (p !== BUNDLE_FILE && p !== SIGNATURE_FILE && !(p in bundle.files)) problems.push(`${p}: in the archive but not listed in ${BUNDLE_FILE} (added)`);
  }
  return problems;
}

/** The data note of a run: whether the local data are the data its manifest records. */
function dataNote(root: string, run: ClaimedRun, dataDir: string, local: Map<string, ReturnType<typeof dataInfo>>): string | null {
  let manifest;
  try {
    manifest = readRunManifestIfAny(path.join(root, run.group, run.run_id));
  } catch (e) {
    return `its manifest could not be read (${(e as Error).message})`;
  }
  if (!manifest) return "its manifest is missing: the data it ran on are not recorded";
  let here = local.get(run.competition_id);
  if (!here) {
    here = dataInfo(getCompetition(run.competition_id), dataDir);
    local.set(run.competition_id, here);
  }
  if (here.tree_sha256 === manifest.data.tree_sha256) return null;
  const differing = Object.keys({ ...manifest.data.files, ...here.files }).filter((f) => manifest.data.files[f] !== here.files[f]);
  const which = differing.length > 0 ? `: ${differing.slice(0, 5).join(", ")}${differing.length > 5 ? `, and ${differing.length - 5} more` : ""}` : "";
  return `the data in ${dataDir} differ from the run's (tree sha256 ${here.tree_sha256.slice(0, 12)}…, the run's ${manifest.data.tree_sha256.slice(0, 12)}…)${which}`;
}

async function checkRun(root: string, run: ClaimedRun, opts: VerifyOptions, local: Map<string, ReturnType<typeof dataInfo>>): Promise<RunCheck> {
  const claimed = { score: run.score, any_medal: run.any_medal, valid_submission: run.valid_submission };
  const base = { group: run.group, run_id: run.run_id, agent_id: run.agent_id, competition_id: run.competition_id, claimed };
  const fail = (verdict: RunCheck["verdict"], detail: string, regraded: RunCheck["regraded"] = null, data_note: string | null = null): RunCheck => ({ ...base, regraded, verdict, detail, data_note });
  // The claim must be the report's: a table row edited on its own is caught here.
  const report = run.report !== null ? readBundledReport(path.join(root, run.report)) : null;
  if (run.report !== null && report === null) return fail("differs", `${run.report} is missing or not a grading report`);
  if (report) {
    const fields = ["valid_submission", "any_medal", "gold_medal", "silver_medal", "bronze_medal", "above_median"] as const;
    const off = fields.filter((f) => report[f] !== run[f]);
    if (!sameScore(report.score, run.score)) off.unshift("score" as never);
    if (off.length > 0) return fail("differs", `${BUNDLE_FILE} claims ${off.join(", ")} other than ${run.report} says`);
  }
  let competition;
  try {
    competition = await loadGrader(getCompetition(run.competition_id));
  } catch (e) {
    return fail("not verified", (e as Error).message);
  }
  let inputs;
  try {
    inputs = loadGradingInputs(competition, opts.dataDir);
  } catch (e) {
    return fail("not verified", (e as Error).message.split("\n")[0]);
  }
  // A claim of a submission the bundle does not carry (left out as too large, say) cannot be checked.
  if (run.submission === null && run.valid_submission) return fail("not verified", "its submission is not in the bundle (see bundle.json's skipped list)");
  const submission = run.submission !== null ? path.join(root, run.submission) : path.join(root, run.group, run.run_id, "submission", "submission.csv");
  const graded = gradeToReport(competition, submission, inputs);
  // A disqualified run keeps its score, but its medal was taken away after grading.
  const disqualified = typeof report?.disqualified_reason === "string" && report.disqualified_reason !== "";
  const regraded = { score: graded.score, any_medal: disqualified ? false : graded.any_medal, valid_submission: graded.valid_submission };
  const note = dataNote(root, run, opts.dataDir, local);
  const diffs: string[] = [];
  if (!sameScore(graded.score, run.score)) diffs.push(`score ${graded.score ?? "none"}, claimed ${run.score ?? "none"}`);
  if (regraded.any_medal !== run.any_medal) diffs.push(`medal ${regraded.any_medal ? "yes" : "no"}, claimed ${run.any_medal ? "yes" : "no"}`);
  if (graded.valid_submission !== run.valid_submission) diffs.push(`valid ${graded.valid_submission}, claimed ${run.valid_submission}`);
  if (diffs.length > 0) return fail("differs", `re-graded: ${diffs.join("; ")}`, regraded, note);
  return { ...base, regraded, verdict: "reproduced", detail: null, data_note: note };
}

/**
 * Verify a bundle: extract it into a private temporary folder, check every hash and the
 * signature, re-grade every claimed run against `dataDir`, and compare the tables.
 */
export async function verifyBundle(opts: VerifyOptions, onRun?: (done: number, total: number) => void): Promise<VerifyResult> {
  if (!fs.existsSync(opts.archive)) throw new UserError(`verify: ${opts.archive} does not exist`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mlb-verify-"));
  try {
    const extracted = await extractTarGz(opts.archive, root, {
      maxBytes: opts.maxBytes ?? 256 * 2 ** 30,
      maxEntries: opts.maxEntries ?? 2_000_000,
      maxPathBytes: 3000,
    });
    const byPath = new Map(extracted.map((f) => [f.path, f]));
    if (!byPath.has(BUNDLE_FILE)) throw new UserError(`${opts.archive} has no ${BUNDLE_FILE}: it is not a bundle made by mlebench bundle`);
    const bundleBytes = fs.readFileSync(path.join(root, BUNDLE_FILE));
    let bundle: Bundle;
    try {
      bundle = BundleSchema.parse(JSON.parse(bundleBytes.toString("utf8")));
    } catch (e) {
      throw new UserError(`${opts.archive}: ${BUNDLE_FILE} is not a bundle manifest (${(e as Error).message.split("\n")[0]})`);
    }
    const signature: VerifyResult["signature"] = { signed: false, valid: null, key_id: null, expected_key_id: opts.key ? keyId(opts.key) : null };
    const problems: string[] = [];
    if (byPath.has(SIGNATURE_FILE)) {
      signature.signed = true;
      try {
        const sig = SignatureSchema.parse(JSON.parse(fs.readFileSync(path.join(root, SIGNATURE_FILE), "utf8")));
        const checked = checkSignature(bundleBytes, sig);
        signature.valid = checked.ok;
        signature.key_id = sig.key_id;
        if (!checked.ok) problems.push(`${BUNDLE_FILE}: its signature in ${SIGNATURE_FILE} does not match (changed after signing)`);
      } catch {
        signature.valid = false;
        problems.push(`${SIGNATURE_FILE}: not a signature`);
      }
    }
    if (signature.expected_key_id !== null) {
      if (!signature.signed) problems.push(`the bundle is not signed, and --key asks for a signature by ${signature.expected_key_id.slice(0, 16)}…`);
      else if (signature.key_id !== signature.expected_key_id) problems.push(`the bundle is signed by key ${signature.key_id?.slice(0, 16)}…, not by the key given with --key (${signature.expected_key_id.slice(0, 16)}…)`);
    }
    const fileProblems = compareFiles(bundle, byPath);
    const claimed = claimedTable(bundle.runs);
    if (JSON.stringify(claimed) !== JSON.stringify(bundle.table)) problems.push(`${BUNDLE_FILE}: its table does not follow from its runs`);
    const runs: RunCheck[] = [];
    const local = new Map<string, ReturnType<typeof dataInfo>>();
    for (const [i, run] of bundle.runs.entries()) {
      runs.push(await checkRun(root, run, opts, local));
      onRun?.(i + 1, bundle.runs.length);
    }
    const reproduced = claimedTable(
      bundle.runs.map((r, i) => ({ ...r, any_medal: runs[i].regraded?.any_medal ?? false })),
    );
    const tableReproduced = runs.every((r) => r.verdict === "reproduced") && JSON.stringify(reproduced) === JSON.stringify(bundle.table);
    const ok = fileProblems.length === 0 && problems.length === 0 && tableReproduced;
    return { archive: opts.archive, ok, file_problems: fileProblems, signature, runs, claimed_table: bundle.table, reproduced_table: reproduced, table_reproduced: tableReproduced, problems };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
