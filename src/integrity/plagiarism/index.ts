/**
 * The plagiarism check of one run: the code the agent left (code/, and logs/best_solution.py when
 * an agent keeps its best program there) compared with reference code, usually the competition's
 * top public kernels, using Dolos.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { openUnder, shownPath, walkUntrusted } from "../../io/untrusted.js";
import type { Flag, RunDir } from "../types.js";
import { comparePlagiarism, isUnreadSkip, unreadReason, type PlagiarismComparison, type SkippedFile } from "./compare.js";

export {
  comparePlagiarism,
  MAX_FILE_BYTES,
  MAX_SIDE_BYTES,
  type CompareOptions,
  type FragmentMatch,
  type LanguageCount,
  type PairMatch,
  type PlagiarismComparison,
  type SkippedFile,
} from "./compare.js";
export {
  downloadKernels,
  kernelBaseName,
  kernelFileFromPull,
  kernelRefText,
  kernelsDir,
  loadKernelRefs,
  parseKernelRefs,
  type DownloadKernelsOptions,
  type KernelDownloadResult,
  type KernelRef,
} from "./kernels.js";
export { DOLOS_LANGUAGES, dolosLanguageOf } from "./languages.js";
export { notebookToScript, type NotebookScript } from "./notebook.js";

/** The check's name, as used in flags and in <run>/integrity/plagiarism.json. */
export const PLAGIARISM_CHECK = "plagiarism";

/** Settings of {@link checkPlagiarism}. */
export interface PlagiarismCheckOptions {
  /** Folder of reference code: the competition's kernels folder, or any folder the user names. */
  referenceDir: string;
  /** Flag at or above this similarity, in [0, 1] (default 0.6). */
  threshold?: number;
  /** How many of the most similar pairs to keep (default 5). */
  top?: number;
}

/** The verdict for one run and the comparison behind it; plain data, safe to write as JSON. */
export interface PlagiarismResult {
  flag: Flag;
  referenceDir: string;
  /** The agent's files that were considered, relative to the run folder. */
  submissionFiles: string[];
  /** How many files the reference folder holds (before skipping those Dolos cannot parse). */
  referenceFileCount: number;
  comparison: PlagiarismComparison;
}

// Folders of tools, caches and checkpoints, not code anyone wrote.
const IGNORED_DIRS = new Set([".git", "__pycache__", "node_modules", ".ipynb_checkpoints", ".venv", "venv", ".mypy_cache", ".pytest_cache"]);

/**
 * How much of a run's code/ is looked at: a tree deeper or larger than this is not code anyone
 * wrote by hand, and the rest of it is reported as skipped.
 */
export const RUN_CODE_LIMITS = { maxDepth: 20, maxEntries: 10_000, maxSkipped: 200, ignoreDirs: IGNORED_DIRS } as const;

/** Every regular file under `dir`, at any depth, in name order; symlinks are not followed, FIFOs and devices are left out. */
export function listFilesDeep(dir: string): string[] {
  return walkUntrusted(dir, { ignoreDirs: IGNORED_DIRS }).files.map((f) => f.abs);
}

/** The code files a run left, and what of its code/ and logs/best_solution.py was not read, with why. */
export function collectRunCode(runDir: string): { files: string[]; skipped: SkippedFile[] } {
  const walk = walkUntrusted(path.join(runDir, "code"), RUN_CODE_LIMITS);
  const skipped: SkippedFile[] = [];
  for (const s of walk.skipped) {
    // No code/ at all is an ordinary run, not something left out.
    if (s.rel === "." && s.why === "missing") continue;
    const file = s.rel === "." ? "code" : `code/${shownPath(s.rel)}`;
    const reason = s.rel === "." && s.why === "not a regular file" ? "not a folder, not read" : unreadReason(s.why);
    skipped.push({ file, side: "submission", reason });
  }
  if (walk.skippedMore > 0) skipped.push({ file: "code", side: "submission", reason: `${walk.skippedMore} more entries skipped (links, special files or past the limits), not listed` });
  const files = walk.files.map((f) => f.abs);
  const opened = openUnder(runDir, "logs/best_solution.py");
  if ("fd" in opened) {
    fs.closeSync(opened.fd);
    files.push(path.join(runDir, "logs", "best_solution.py"));
  } else if (opened.skipped !== "missing") {
    skipped.push({ file: "logs/best_solution.py", side: "submission", reason: unreadReason(opened.skipped, opened.via) });
  }
  return { files, skipped };
}

/** The code files an agent left in a run folder: everything under code/, plus logs/best_solution.py. */
export function runCodeFiles(runDir: string): string[] {
  return collectRunCode(runDir).files;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** Listed in the reason: the first few files of the run that were not read, so the plain output says so too. */
const UNREAD_IN_REASON = 3;
/** Lines of evidence naming files of the run that were not read. */
const UNREAD_IN_EVIDENCE = 10;

function unreadSuffix(unread: SkippedFile[]): string {
  if (unread.length === 0) return "";
  const named = unread.slice(0, UNREAD_IN_REASON).map((s) => `${s.file} (${s.reason})`);
  const more = unread.length > UNREAD_IN_REASON ? `, and ${unread.length - UNREAD_IN_REASON} more` : "";
  return `; not compared: ${named.join(", ")}${more}`;
}

function verdict(run: RunDir, files: string[], comparison: PlagiarismComparison): Flag {
  const flag = bareVerdict(run, files, comparison);
  const unread = comparison.skipped.filter((s) => s.side === "submission" && isUnreadSkip(s));
  if (unread.length === 0) return flag;
  const listed = new Set(flag.evidence);
  const extra = unread
    .slice(0, UNREAD_IN_EVIDENCE)
    .map((s) => `${s.side} ${s.file} skipped: ${s.reason}`)
    .filter((e) => !listed.has(e));
  return { ...flag, reason: flag.reason + unreadSuffix(unread), evidence: [...flag.evidence, ...extra] };
}

function bareVerdict(run: RunDir, files: string[], comparison: PlagiarismComparison): Flag {
  const base = { run: run.runId, check: PLAGIARISM_CHECK };
  const evidence = comparison.pairs.map((p) => {
    const longest = p.fragments[0];
    const where = longest
      ? `; longest shared fragment ${longest.kgrams} k-grams, lines ${longest.submissionLines.join("-")} of ${p.submission} ~ lines ${longest.referenceLines.join("-")} of ${p.reference}`
      : "";
    return `${p.submission} vs ${p.reference}: similarity ${p.similarity.toFixed(3)}${where}`;
  });
  if (files.length === 0) return { ...base, flagged: false, reason: "the run left no code (code/ is empty or missing)", evidence: [] };
  const best = comparison.pairs[0];
  if (!best) {
    return {
      ...base,
      flagged: false,
      reason: "no code file shares a language Dolos parses with any reference file, so nothing was compared",
      evidence: comparison.skipped.map((s) => `${s.side} ${s.file} skipped: ${s.reason}`),
    };
  }
  const pair = `${best.submission} vs ${best.reference}`;
  const reason = comparison.flagged
    ? `${pair} are ${percent(best.similarity)} similar, at or above the threshold of ${percent(comparison.threshold)}`
    : `the most similar pair, ${pair}, is ${percent(best.similarity)} similar, below the threshold of ${percent(comparison.threshold)}`;
  return { ...base, flagged: comparison.flagged, reason, evidence };
}

/** Compare one run's code with the reference folder and say whether it looks copied. */
export async function checkPlagiarism(run: RunDir, opts: PlagiarismCheckOptions): Promise<PlagiarismResult> {
  const referenceDir = path.resolve(opts.referenceDir);
  if (!fs.existsSync(referenceDir) || !fs.statSync(referenceDir).isDirectory()) {
    throw new UserError(
      `Reference folder ${referenceDir} does not exist. Download the competition's top kernels first ` +
        `(they go to <data-dir>/${run.competitionId}/kernels), or name a folder of reference code.`,
    );
  }
  // The folder the user named may itself be a link; what lies inside it is read like the run's code.
  const referenceRoot = fs.realpathSync(referenceDir);
  const refWalk = walkUntrusted(referenceRoot, { ignoreDirs: IGNORED_DIRS });
  const referenceFiles = refWalk.files.map((f) => f.abs);
  if (referenceFiles.length === 0) throw new UserError(`Reference folder ${referenceDir} holds no files to compare with.`);
  const refSkipped: SkippedFile[] = refWalk.skipped.map((s) => ({ file: shownPath(s.rel), side: "reference", reason: unreadReason(s.why) }));
  const { files, skipped } = collectRunCode(run.dir);
  let comparison: PlagiarismComparison;
  try {
    comparison = await comparePlagiarism({
      submissionFiles: files,
      referenceFiles,
      submissionRoot: run.dir,
      referenceRoot,
      threshold: opts.threshold,
      top: opts.top,
      skipped: [...skipped, ...refSkipped],
    });
  } catch (err) {
    if (err instanceof UserError) throw err;
    // Whatever in this run's code broke the comparison, the other runs are still compared.
    throw new UserError(`the comparison of ${run.runId}'s code failed: ${(err as Error).message}`);
  }
  return {
    flag: verdict(run, files, comparison),
    referenceDir,
    submissionFiles: files.map((f) => path.relative(run.dir, f)),
    referenceFileCount: referenceFiles.length,
    comparison,
  };
}
