/** Evaluate every run of a group and write the summary as JSON, Markdown and HTML. */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { writeFileAtomic } from "../../core/atomic.js";
import { readResearchGroupRecord, type ResearchGroupRecord } from "../../results/research-group.js";
import { parseRunDirName, runDirName, runPaths } from "./layout.js";
import { writeEvalSummary, type EvalSummary, type RunEval } from "./records.js";
import { renderEvalHtml, renderEvalMarkdown } from "./render.js";
import { evaluateRun, type BaselineCache, type EvalOptions } from "./score-run.js";
import { summarizeGroup } from "./summary.js";

/** Where a group's evaluation is written. */
export const evalPaths = (groupDir: string) => {
  const dir = path.join(groupDir, "eval");
  return { dir, json: path.join(dir, "summary.json"), markdown: path.join(dir, "summary.md"), html: path.join(dir, "summary.html") };
};

/**
 * The run folders of a group: every task × seed group.json promises (present or not, so a run that never
 * wrote anything is still reported), then any other `<task>-seed<k>` folder or folder holding a run.json.
 */
export function listRunDirs(groupDir: string, group: ResearchGroupRecord | null): string[] {
  const expected = group ? group.tasks.flatMap((t) => group.seeds.map((s) => runDirName(t, s))) : [];
  const present = fs
    .readdirSync(groupDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "eval")
    .map((e) => e.name)
    .filter((n) => parseRunDirName(n) !== null || fs.existsSync(runPaths(path.join(groupDir, n)).record))
    .sort();
  return [...new Set([...expected, ...present])].map((n) => path.join(groupDir, n));
}

/**
 * Evaluate each run of the group in `groupDir` (see evaluateRun; a task's starter code is measured once
 * when it has no recorded baseline), then write `<group>/eval/summary.json`, `summary.md` and `summary.html`.
 */
export async function evaluateGroup(groupDir: string, opts: EvalOptions): Promise<EvalSummary> {
  if (!fs.existsSync(groupDir) || !fs.statSync(groupDir).isDirectory()) throw new UserError(`The run group folder ${groupDir} does not exist`);
  let group: ResearchGroupRecord | null = null;
  let groupError: string | null = null;
  try {
    group = readResearchGroupRecord(path.join(groupDir, "group.json"));
  } catch (e) {
    groupError = (e as Error).message;
  }
  const runDirs = listRunDirs(groupDir, group);
  if (runDirs.length === 0) throw new UserError(groupError ?? `${groupDir} holds no runs: group.json lists no tasks or seeds`);
  const baselines: BaselineCache = opts.baselines ?? new Map();
  const evals: RunEval[] = [];
  for (const dir of runDirs) evals.push(await evaluateRun(dir, { ...opts, baselines }));
  const summary = summarizeGroup(groupDir, evals);
  const out = evalPaths(groupDir);
  fs.mkdirSync(out.dir, { recursive: true });
  writeEvalSummary(out.json, summary);
  writeFileAtomic(out.markdown, renderEvalMarkdown(summary));
  writeFileAtomic(out.html, renderEvalHtml(summary));
  return summary;
}
