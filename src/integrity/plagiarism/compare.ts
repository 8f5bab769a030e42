/**
 * Compares an agent's code with reference code (top public kernels) using Dolos, the winnowing-based
 * similarity detector upstream MLE-bench uses. Files are grouped by language, because Dolos
 * tokenizes one language per analysis; only submission-vs-reference pairs are scored.
 */
import fs from "node:fs";
import path from "node:path";
import type { DolosFile, DolosLib, DolosPair as Pair, DolosReport as Report } from "./dolos-api.js";
import { UserError } from "../../core/errors.js";
import { describeSkip, openRegular, readOpened, type SkipReason } from "../../io/untrusted.js";
import { dolosLanguageOf, dolosLanguageOfNotebook } from "./languages.js";
import { notebookToScript } from "./notebook.js";

/** Files above this size are skipped: generated or data files, whose pairing would take minutes. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Bytes read per side in all; files past it are skipped, so a run of thousands of 1 MiB files cannot fill memory. */
export const MAX_SIDE_BYTES = 64 * 1024 * 1024;

/** How many of a pair's longest fragments are reported. */
const FRAGMENTS_PER_PAIR = 3;

/** What {@link comparePlagiarism} compares and how it decides. */
export interface CompareOptions {
  /** The agent's code files (paths on disk). */
  submissionFiles: string[];
  /** The reference code files (paths on disk). */
  referenceFiles: string[];
  /** Submission paths are reported relative to this folder (default: their common folder). */
  submissionRoot?: string;
  /** Reference paths are reported relative to this folder (default: their common folder). */
  referenceRoot?: string;
  /** Flag when the best pair's similarity is at least this, in [0, 1] (default 0.6). */
  threshold?: number;
  /** How many of the most similar pairs to report (default 5). */
  top?: number;
  /** Files already left out by the caller (links, special files, paths past the limits), reported first. */
  skipped?: SkippedFile[];
}

/** One stretch of code the two files share; lines are 1-based and inclusive. */
export interface FragmentMatch {
  /** Length in Dolos k-grams (overlapping runs of tokens); longer means a longer shared stretch. */
  kgrams: number;
  submissionLines: [number, number];
  referenceLines: [number, number];
}

/** A submission file and a reference file with their Dolos similarity. */
export interface PairMatch {
  submission: string;
  reference: string;
  language: string;
  /** Dolos similarity: the share of both files' fingerprints that the other file also has, in [0, 1]. */
  similarity: number;
  /** The longest run of consecutive shared fingerprints. */
  longestFragment: number;
  /** The longest shared fragments, longest first. */
  fragments: FragmentMatch[];
}

/** A file left out of the comparison, and why. */
export interface SkippedFile {
  file: string;
  side: "submission" | "reference";
  reason: string;
}

/** How many files of each side one language's analysis compared. */
export interface LanguageCount {
  language: string;
  submission: number;
  reference: number;
}

/** The outcome of {@link comparePlagiarism}; plain data, safe to write as JSON. */
export interface PlagiarismComparison {
  threshold: number;
  /** Highest similarity over all submission-vs-reference pairs; 0 when nothing was compared. */
  bestSimilarity: number;
  flagged: boolean;
  /** The `top` most similar pairs, most similar first. */
  pairs: PairMatch[];
  /** Pairs scored in all (submission files × reference files, per language). */
  pairsCompared: number;
  languages: LanguageCount[];
  skipped: SkippedFile[];
}

type Side = "submission" | "reference";

interface CodeFile {
  /** Path on disk, unique; the key Dolos reports files by. */
  abs: string;
  /** Path as reported. */
  shown: string;
  side: Side;
  language: string;
  content: string;
}

// A NUL byte in the first few KB is the usual sign of a binary file that merely has a code extension.
function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

/** The reason given for a file that was not opened, e.g. "a symbolic link, not followed". */
export function unreadReason(why: SkipReason, via?: string): string {
  return via ? `${describeSkip(why)} at ${via}/` : describeSkip(why);
}

const UNREAD_PREFIXES = [...(["symbolic link", "not a regular file", "missing", "too deep", "path too long", "too many entries", "unreadable"] as const).map((w) => describeSkip(w)), "larger than ", "over the ", "not a folder"];

/** Whether a skipped file was left out because of what it is (a link, a special file, its size, its path), not its language or content. */
export function isUnreadSkip(s: SkippedFile): boolean {
  return UNREAD_PREFIXES.some((p) => s.reason.startsWith(p)) || /^\d+ more entries skipped/.test(s.reason);
}

/** Read one file for comparison, or say why it is left out; `budget.left` is what this side may still read. */
function readCodeFile(abs: string, shown: string, side: Side, budget: { left: number }): CodeFile | SkippedFile {
  const skip = (reason: string): SkippedFile => ({ file: shown, side, reason });
  // Never through a link, never a FIFO or device: either could hand over anything, or block forever.
  const opened = openRegular(abs);
  if ("skipped" in opened) return skip(unreadReason(opened.skipped));
  let data: Buffer;
  try {
    // A file no parser takes is never compared, whatever its size.
    const isNotebook = path.extname(abs).toLowerCase() === ".ipynb";
    if (!isNotebook && !dolosLanguageOf(abs)) return skip(`no Dolos parser for "${path.extname(abs) || "(no extension)"}" files`);
    if (opened.size > MAX_FILE_BYTES) {
      return skip(`larger than ${MAX_FILE_BYTES} bytes (${opened.size}); too big to be hand-written code`);
    }
    if (opened.size > budget.left) return skip(`over the ${MAX_SIDE_BYTES} bytes read per side in all`);
    data = readOpened(opened.fd, opened.size, MAX_FILE_BYTES).bytes;
    budget.left -= data.length;
  } catch (err) {
    return skip(`${describeSkip("unreadable")}: ${(err as Error).message}`);
  } finally {
    fs.closeSync(opened.fd);
  }
  return codeFromBytes(abs, shown, side, data);
}

function codeFromBytes(abs: string, shown: string, side: Side, data: Buffer): CodeFile | SkippedFile {
  const skip = (reason: string): SkippedFile => ({ file: shown, side, reason });
  if (looksBinary(data)) return skip("binary content");
  const text = data.toString("utf8");
  const byExtension = dolosLanguageOf(abs);
  if (path.extname(abs).toLowerCase() !== ".ipynb") return { abs, shown, side, language: byExtension!, content: text };
  try {
    const nb = notebookToScript(text, shown);
    // A notebook that does not name its kernel is almost always Python, Kaggle's default.
    const language = nb.language === "" ? "python" : dolosLanguageOfNotebook(nb.language);
    if (!language) return skip(`notebook in ${nb.language}, which Dolos cannot parse`);
    return { abs, shown, side, language, content: nb.code };
  } catch (err) {
    return skip((err as Error).message);
  }
}

function commonDir(files: string[]): string {
  if (files.length === 0) return process.cwd();
  let dir = path.dirname(files[0]!);
  for (const f of files) {
    while (dir !== path.dirname(dir) && path.relative(dir, f).startsWith("..")) dir = path.dirname(dir);
  }
  return dir;
}

function checkOptions(threshold: number, top: number): void {
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new UserError(`Invalid plagiarism threshold ${threshold}: expected a number from 0 to 1 (e.g. 0.6 for 60% similar).`);
  }
  if (!Number.isInteger(top) || top < 1) throw new UserError(`Invalid number of top pairs ${top}: expected a whole number of at least 1.`);
}

// A specifier in a variable keeps the compiler from needing the optional module to be installed.
const DOLOS_MODULE = "@dodona/dolos-lib";

// Loaded on first use, so commands that never compare code do not load native parsers.
async function loadDolos(): Promise<DolosLib> {
  try {
    return (await import(DOLOS_MODULE)) as DolosLib;
  } catch (err) {
    throw new UserError(
      `Plagiarism detection needs @dodona/dolos-lib, an optional dependency that is not installed (${(err as Error).message}). ` +
        "Its native parsers are compiled on install: install python3, make and a C++ compiler (Debian: apt-get install build-essential python3), " +
        "then run `npm install @dodona/dolos-lib@3.5.1`.",
    );
  }
}

/** Fail early, and clearly, when the native tree-sitter parsers were never built. */
async function checkParser(lib: DolosLib, language: string): Promise<void> {
  try {
    const lang = await new lib.LanguagePicker().findLanguage(language);
    await lang.createTokenizer();
  } catch (err) {
    throw new UserError(
      `Dolos cannot load its ${language} parser: ${(err as Error).message}\n` +
        "Its native parsers are compiled when @dodona/dolos-parsers is installed; build them with " +
        "`npm rebuild @dodona/dolos-parsers` (needs python3, make and a C++ compiler).",
    );
  }
}

/** Analyse one language's files; files the tokenizer chokes on are moved to `skipped` and the rest retried. */
async function analyzeLanguage(
  lib: DolosLib,
  language: string,
  files: CodeFile[],
  skipped: SkippedFile[],
): Promise<{ report: Report; files: CodeFile[] } | null> {
  const toDolos = (list: CodeFile[]): DolosFile[] => list.map((f) => new lib.File(f.abs, f.content));
  const usable = (list: CodeFile[]) => list.some((f) => f.side === "submission") && list.some((f) => f.side === "reference");
  if (!usable(files)) return null;
  const dolos = new lib.Dolos({ language });
  try {
    return { report: await dolos.analyze(toDolos(files)), files };
  } catch {
    // One unparseable file must not cost the whole comparison: find it and go on without it.
    const tokenizer = await (await new lib.LanguagePicker().findLanguage(language)).createTokenizer();
    const kept: CodeFile[] = [];
    for (const f of files) {
      try {
        tokenizer.tokenizeFile(new lib.File(f.abs, f.content));
        kept.push(f);
      } catch (err) {
        skipped.push({ file: f.shown, side: f.side, reason: `Dolos could not parse it as ${language}: ${(err as Error).message}` });
      }
    }
    if (!usable(kept)) return null;
    return { report: await new lib.Dolos({ language }).analyze(toDolos(kept)), files: kept };
  }
}

function describePair(pair: Pair, sub: CodeFile, ref: CodeFile, language: string): PairMatch {
  const subIsLeft = pair.leftFile.path === sub.abs;
  const fragments = pair
    .buildFragments()
    .map((f) => {
      const subSel = subIsLeft ? f.leftSelection : f.rightSelection;
      const refSel = subIsLeft ? f.rightSelection : f.leftSelection;
      return {
        kgrams: f.leftkgrams.length,
        // Dolos counts rows from 0.
        submissionLines: [subSel.startRow + 1, subSel.endRow + 1] as [number, number],
        referenceLines: [refSel.startRow + 1, refSel.endRow + 1] as [number, number],
      };
    })
    .sort((a, b) => b.kgrams - a.kgrams || a.submissionLines[0] - b.submissionLines[0])
    .slice(0, FRAGMENTS_PER_PAIR);
  return {
    submission: sub.shown,
    reference: ref.shown,
    language,
    similarity: pair.similarity,
    longestFragment: pair.longest,
    fragments,
  };
}

/**
 * Score every submission file against every reference file of the same language with Dolos and
 * report the most similar pairs; flagged when the best similarity reaches the threshold.
 */
export async function comparePlagiarism(options: CompareOptions): Promise<PlagiarismComparison> {
  const threshold = options.threshold ?? 0.6;
  const top = options.top ?? 5;
  checkOptions(threshold, top);
  const skipped: SkippedFile[] = [...(options.skipped ?? [])];
  const files: CodeFile[] = [];
  const sides: [Side, string[], string | undefined][] = [
    ["submission", options.submissionFiles, options.submissionRoot],
    ["reference", options.referenceFiles, options.referenceRoot],
  ];
  for (const [side, list, root] of sides) {
    const abs = [...new Set(list.map((f) => path.resolve(f)))];
    const base = root ? path.resolve(root) : commonDir(abs);
    const budget = { left: MAX_SIDE_BYTES };
    for (const file of abs) {
      const got = readCodeFile(file, path.relative(base, file) || path.basename(file), side, budget);
      if ("content" in got) files.push(got);
      else skipped.push(got);
    }
  }

  const byLanguage = new Map<string, CodeFile[]>();
  for (const f of files) byLanguage.set(f.language, [...(byLanguage.get(f.language) ?? []), f]);

  const pairs: PairMatch[] = [];
  const languages: LanguageCount[] = [];
  let pairsCompared = 0;
  let lib: DolosLib | null = null;
  for (const language of [...byLanguage.keys()].sort()) {
    const group = byLanguage.get(language)!;
    const count = (list: CodeFile[], side: Side) => list.filter((f) => f.side === side).length;
    if (count(group, "submission") === 0 || count(group, "reference") === 0) {
      languages.push({ language, submission: count(group, "submission"), reference: count(group, "reference") });
      continue;
    }
    lib ??= await loadDolos();
    await checkParser(lib, language);
    const analysed = await analyzeLanguage(lib, language, group, skipped);
    const used = analysed?.files ?? [];
    languages.push({ language, submission: count(used, "submission"), reference: count(used, "reference") });
    if (!analysed) continue;
    const tokenized = new Map(analysed.report.files.map((t) => [t.path, t]));
    for (const sub of used.filter((f) => f.side === "submission")) {
      for (const ref of used.filter((f) => f.side === "reference")) {
        const pair = analysed.report.getPair(tokenized.get(sub.abs)!, tokenized.get(ref.abs)!);
        pairsCompared += 1;
        pairs.push(describePair(pair, sub, ref, language));
      }
    }
  }

  pairs.sort((a, b) => b.similarity - a.similarity || a.submission.localeCompare(b.submission) || a.reference.localeCompare(b.reference));
  const bestSimilarity = pairs[0]?.similarity ?? 0;
  return {
    threshold,
    bestSimilarity,
    flagged: pairs.length > 0 && bestSimilarity >= threshold,
    pairs: pairs.slice(0, top),
    pairsCompared,
    languages,
    skipped,
  };
}
