/** How the top-level help shows a command: its name, its left column and its one-line summary. */
export interface CommandHelp {
  name: string;
  /** The help's left column: the name, "[options]" and the arguments. */
  term: string;
  summary: string;
}

/**
 * Every command's help line, in help order. Kept apart from the loaders (commands.ts) so a
 * command's module can take its summary from here without importing the table that imports it.
 */
export const COMMAND_HELP: readonly CommandHelp[] = [
  { name: "list", term: "list [options]", summary: "list competitions with graders and whether they are prepared" },
  { name: "prepare", term: "prepare [options]", summary: "prepare competition data (public/private splits, leaderboard) in the data dir" },
  { name: "grade-sample", term: "grade-sample [options] <submission> <competition-id>", summary: "grade one submission CSV and print its report" },
  { name: "grade", term: "grade [options]", summary: "grade many submissions listed in a JSONL file into one report" },
  { name: "run", term: "run [options]", summary: "run an agent on competitions in sandboxes (a run group)" },
  { name: "worker", term: "worker [options]", summary: "run queued runs (from `mlebench run --queue`) on this machine" },
  { name: "status", term: "status [options] <group>", summary: "show where each run of a run group stands" },
  { name: "pull", term: "pull [options] <group>", summary: "copy a run group from S3 (or a shared dir) into a local runs dir" },
  { name: "tasks", term: "tasks", summary: "MLAgentBench research tasks: list, prepare, run an agent, evaluate runs" },
  { name: "integrity", term: "integrity", summary: "plagiarism and rule-violation checks of run groups, and a leakage audit of prepared competitions" },
  { name: "report", term: "report [options] <inputs...>", summary: "tables and charts (medal rates ± SEM, pass@k, time curves) from run groups or grading reports" },
  { name: "bundle", term: "bundle [options] <groups...>", summary: "pack run groups with manifests and every file's hash (optionally signed) into one .tar.gz" },
  { name: "verify", term: "verify [options] <bundle>", summary: "check a bundle's hashes and signature and re-grade its submissions against local answers" },
  { name: "view", term: "view [options] [dirs...]", summary: "a local web viewer of run groups: tables, run timelines, LLM calls, code diffs, search" },
  { name: "doctor", term: "doctor [options]", summary: "check that this machine can run agents (sandbox, Python, limits, GPUs)" },
  { name: "demo", term: "demo [options]", summary: "prepare the offline competitions, run the dummy and baseline agents, grade, and compare" },
];

/** The summary of a command (each module's definition uses it, so the two cannot drift). */
export function summaryOf(name: string): string {
  const entry = COMMAND_HELP.find((c) => c.name === name);
  if (!entry) throw new Error(`cli/command-help.ts lists no command "${name}"`);
  return entry.summary;
}
