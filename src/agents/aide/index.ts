/** AIDE: a tree search over whole Python solutions, written by an LLM in the harness and run in the sandbox. */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { agentClient, callTimeout, type LlmSettings } from "../../llm/options.js";
import { BudgetExceededError } from "../../llm/budget.js";
import { callTool, StructuredOutputError } from "../../llm/structured.js";
import type { LLMClient } from "../../llm/types.js";
import type { ExecResult } from "../../sandbox/types.js";
import { endsRun } from "../../sandbox/watch.js";
import type { Agent, AgentContext, AgentOutcome } from "../types.js";
import { dataPreview } from "./data-preview.js";
import { Journal, type JournalNode } from "./journal.js";
import { debugPrompt, draftPrompt, improvePrompt, reviewPrompt, USER_TURN, type PromptContext } from "./prompts.js";
import { extractSolution, SYNTAX_CHECK_PY, trimOutput } from "./response.js";
import { judgeRun, REVIEW_TOOL, unreviewed, type Verdict } from "./review.js";
import { DEFAULT_SEARCH, nextStep, seededRng, type SearchConfig } from "./search.js";
import { treeHtml } from "./tree-html.js";

/** How the AIDE agent is configured. */
export interface AideOptions extends Partial<SearchConfig>, LlmSettings {
  /** Search steps (each writes, runs and reviews one program); default 20. */
  steps?: number;
  /** Time limit of each program, ms; default one hour, never past the run's deadline. */
  execTimeoutMs?: number;
  /** Sampling temperature of the coding and review calls; default 0.5. */
  temperature?: number;
  /** The Python that runs the programs inside the sandbox. */
  python?: string;
}

/** Answers without usable code are asked again this many times in all (as the reference does). */
const CODE_ATTEMPTS = 3;
const DEFAULT_STEPS = 20;
const DEFAULT_EXEC_TIMEOUT_MS = 3_600_000;
/** A step is not started with less time than this left. */
const MIN_STEP_MS = 5_000;

/** Files the agent keeps in its records (the run's logs folder once the run is over). */
export const AIDE_FILES = { journal: "journal.json", best: "best_solution.py", tree: "tree.html", llmLog: "llm.jsonl" } as const;

/** The AIDE agent (`--agent aide`). */
export function aideAgent(options: AideOptions): Agent {
  return {
    id: "aide",
    env: {},
    secretNames: [],
    allowHosts: [],
    files: {},
    run: (ctx) => runAide(ctx, options),
  };
}

async function runAide(ctx: AgentContext, options: AideOptions): Promise<AgentOutcome> {
  const p = ctx.sandbox.paths;
  const python = options.python ?? "/usr/bin/python3";
  const search: SearchConfig = {
    numDrafts: options.numDrafts ?? DEFAULT_SEARCH.numDrafts,
    debugProb: options.debugProb ?? DEFAULT_SEARCH.debugProb,
    maxDebugDepth: options.maxDebugDepth ?? DEFAULT_SEARCH.maxDebugDepth,
  };
  const steps = options.steps ?? DEFAULT_STEPS;
  const execTimeoutMs = options.execTimeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
  const temperature = options.temperature ?? 0.5;
  const hostLogs = ctx.records;
  const steady = options.llmRecordDir !== undefined || options.llmReplayDir !== undefined;
  const note = (line: string) => {
    fs.appendFileSync(ctx.agentLog, `[aide] ${line}\n`);
    ctx.log(`aide: ${line}`);
  };
  const client = agentClient(options, path.join(hostLogs, AIDE_FILES.llmLog), note);
  const callTimeoutMs = callTimeout(options, ctx.deadline);
  const exec = (argv: string[], opts: { cwd?: string; input?: string; timeoutMs?: number; logFile?: string } = {}) =>
    ctx.sandbox.exec(argv, { cwd: p.workspace, ...opts });
  const runEnded = (r: ExecResult): AgentOutcome | null => {
    if (endsRun(r)) return { reason: r.reason, exitCode: r.exitCode, signal: r.signal };
    if (Date.now() >= ctx.deadline) return { reason: "time_limit", exitCode: r.exitCode, signal: r.signal };
    return null;
  };

  const journal = new Journal();
  const rng = seededRng(ctx.seed);
  const save = () => {
    const file = { ...journal.toJSON(), usage: { ...client.totals() } };
    writeFileAtomic(path.join(hostLogs, AIDE_FILES.journal), JSON.stringify(file, null, 2) + "\n");
    writeFileAtomic(path.join(hostLogs, AIDE_FILES.tree), treeHtml(file, ctx.competition.id));
    const best = journal.best();
    if (best) writeFileAtomic(path.join(hostLogs, AIDE_FILES.best), best.code.endsWith("\n") ? best.code : best.code + "\n");
  };

  const task = await taskText(ctx, exec);
  const preview = await dataPreview(ctx.sandbox, { python });
  if (preview.error) note(`no data overview: ${preview.error}`);
  const checkSyntax = async (code: string) => (await exec([python, "-c", SYNTAX_CHECK_PY], { input: code, timeoutMs: 60_000 })).exitCode === 0;

  // The run's end (time, memory, disk, interruption) as the sandbox reported it.
  let ended: AgentOutcome | null = null;
  // The model stopped answering: the search ends, and the best node so far stands.
  let llmDown = false;
  for (let step = 0; step < steps && !ended && !llmDown; step++) {
    if (ctx.deadline - Date.now() < MIN_STEP_MS) {
      note("stopping: the run's time is nearly up");
      break;
    }
    const decision = nextStep(journal, search, rng);
    const pctx: PromptContext = {
      task,
      dataDir: p.data,
      preview: preview.text,
      memory: journal.memory(),
      execTimeoutS: (steady ? execTimeoutMs : Math.min(execTimeoutMs, ctx.deadline - Date.now())) / 1000,
      stepsLeft: steps - step,
      totalSteps: steps,
      secondsLeft: steady ? undefined : Number.isFinite(ctx.deadline) ? (ctx.deadline - Date.now()) / 1000 : null,
    };
    const prompt =
      decision.action === "draft"
        ? draftPrompt(pctx)
        : decision.action === "improve"
          ? improvePrompt(pctx, decision.parent.code)
          : debugPrompt(pctx, decision.parent.code, decision.parent.termOut, decision.parent.analysis);
    const parentId = decision.action === "draft" ? null : decision.parent.id;
    note(`step ${step}: ${decision.action}${parentId === null ? "" : ` node ${parentId}`}`);

    let solution: { plan: string; code: string };
    try {
      solution = await writeSolution(client, { prompt, temperature, timeoutMs: callTimeoutMs() }, checkSyntax, note);
    } catch (err) {
      const why = err instanceof BudgetExceededError ? "the run's LLM budget is spent" : "the model could not be reached";
      note(`stopping: ${why}: ${(err as Error).message}`);
      break;
    }

    const id = journal.nodes.length;
    const dir = path.posix.join(p.workspace, `node_${id}`);
    const file = path.posix.join(p.code, `node_${id}.py`);
    await exec(["/bin/sh", "-c", 'mkdir -p "$1/submission" "$1/working" && ln -sfn "$2" "$1/input" && cat > "$3"', "setup", dir, p.data, file], {
      input: solution.code,
    });
    const limitMs = Math.max(1000, Math.min(execTimeoutMs, ctx.deadline - Date.now()));
    const r = await exec(["/bin/sh", "-c", 'exec "$0" "$1" 2>&1', python, file], { cwd: dir, timeoutMs: limitMs, logFile: ctx.agentLog });
    const timedOut = r.reason === "time_limit";
    const submissionFile = path.posix.join(dir, "submission", "submission.csv");
    const hasSubmission = (await exec(["/bin/sh", "-c", 'test -s "$1"', "check", submissionFile])).exitCode === 0;
    const limit = steady ? "time limit" : `${Math.round(limitMs / 1000)} s limit`;
    const termOut = trimOutput(
      r.stdout +
        (timedOut ? `\nThe program was stopped: it ran past its ${limit}.` : "") +
        (steady ? "" : `\nExecution time: ${(r.wallMs / 1000).toFixed(1)} s (${limit}).`),
    );

    let verdict: Verdict;
    try {
      const { value } = await callTool(
        client,
        {
          messages: [{ role: "system", content: reviewPrompt(task, solution.code, termOut) }, { role: "user", content: USER_TURN }],
          temperature,
          timeoutMs: callTimeoutMs(),
        },
        REVIEW_TOOL,
      );
      verdict = judgeRun(journal, value, { exitCode: r.exitCode, timedOut, hasSubmission });
    } catch (err) {
      if (!(err instanceof StructuredOutputError)) llmDown = true;
      note(`review of node ${id} failed: ${(err as Error).message}`);
      verdict = unreviewed((err as Error).message);
    }
    const before = journal.best();
    const node: JournalNode = {
      id,
      parentId,
      stage: journal.stageFor(parentId),
      plan: solution.plan,
      code: solution.code,
      createdAt: new Date().toISOString(),
      termOut,
      execTimeS: r.wallMs / 1000,
      exitCode: r.exitCode,
      timedOut,
      hasSubmission,
      ...verdict,
    };
    journal.append(node);
    note(`node ${id} (${node.stage}): ${node.isBug ? "buggy" : `metric ${node.metric}`}`);
    if (journal.best()?.id === id && before?.id !== id) {
      const cp = await exec(["/bin/cp", submissionFile, path.posix.join(p.submission, "submission.csv")]);
      note(cp.exitCode === 0 ? `node ${id} is the best so far; its submission is now the run's` : `copying node ${id}'s submission failed: ${cp.stderr.trim()}`);
    }
    save();
    ended = runEnded(r);
  }
  save();
  if (ended) return ended;
  const best = journal.best();
  note(best ? `done: best node ${best.id}, metric ${best.metric}` : "done without a working solution");
  return best ? { reason: "finished", exitCode: 0, signal: null } : { reason: "crashed", exitCode: 1, signal: null };
}

/** Ask for a plan and code until both come back; after the last try the raw answer is run as it is, so its failure is debugged. */
async function writeSolution(
  client: LLMClient,
  { prompt, temperature, timeoutMs }: { prompt: string; temperature: number; timeoutMs: number },
  check: (code: string) => Promise<boolean>,
  note: (line: string) => void,
): Promise<{ plan: string; code: string }> {
  let last = "";
  for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt++) {
    const result = await client.complete({
      messages: [
        { role: "system", content: prompt },
        { role: "user", content: USER_TURN },
      ],
      temperature,
      timeoutMs,
    });
    last = result.refusal ?? result.text;
    const solution = await extractSolution(result.text, check);
    if (solution) return solution;
    note(`answer ${attempt} of ${CODE_ATTEMPTS} had no plan with parseable code${result.refusal !== undefined ? " (refused)" : ""}`);
  }
  return { plan: "", code: last };
}

/** The instructions, plus the competition's description when the data folder has one. */
async function taskText(ctx: AgentContext, exec: (argv: string[]) => Promise<ExecResult>): Promise<string> {
  const r = await exec(["/bin/cat", path.posix.join(ctx.sandbox.paths.data, "description.md")]);
  const description = r.exitCode === 0 ? r.stdout.trim() : "";
  return description ? `${ctx.instructions.trim()}\n\n## Competition description\n\n${description}` : ctx.instructions.trim();
}
