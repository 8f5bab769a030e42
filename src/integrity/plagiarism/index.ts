/**
 * The plagiarism check of one run: the code the agent left (code/, and logs/best_solution.py when
 * an agent keeps its best program there) compared with reference code, usually the competition's
 * top public kernels, using Dolos.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.js";
import type { Flag, RunDir } from "../types.js";
import { comparePlagiarism, type PlagiarismComparison } from "./compare.js";

export {
  comparePlagiarism,
  MAX_FILE_BYTES,
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

/** Every regular file under `dir`, at any depth, in name order; symlinks are not followed. */
export function listFilesDeep(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (!IGNORED_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile()) {
        out.push(full);
      }
    }
  };
  if (fs.existsSync(dir) && fs.statSync(dir).isDirectory()) walk(dir);
  return out;
}

/** The code files an agent left in a run folder: everything under code/, plus logs/best_solution.py. */
export function runCodeFiles(runDir: string): string[] {
  const files = listFilesDeep(path.join(runDir, "code"));
  const best = path.join(runDir, "logs", "best_solution.py");
  if (fs.existsSync(best) && fs.statSync(best).isFile()) files.push(best);
  return files;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function verdict(run: RunDir, files: string[], comparison: PlagiarismComparison): Flag {
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
  const referenceFiles = listFilesDeep(referenceDir);
  if (referenceFiles.length === 0) throw new UserError(`Reference folder ${referenceDir} holds no files to compare with.`);
  const files = runCodeFiles(run.dir);
  const comparison = await comparePlagiarism({
    submissionFiles: files,
    referenceFiles,
    submissionRoot: run.dir,
    referenceRoot: referenceDir,
    threshold: opts.threshold,
    top: opts.top,
  });
  return {
    flag: verdict(run, files, comparison),
    referenceDir,
    submissionFiles: files.map((f) => path.relative(run.dir, f)),
    referenceFileCount: referenceFiles.length,
    comparison,
  };
}
