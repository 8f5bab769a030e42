/** The MLAgentBench research agent as an MLE-bench agent (`--agent mlab`): ReAct over the action environment. */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { Environment } from "../../mlagentbench/env/environment.js";
import { watchRunEnd } from "../../sandbox/watch.js";
import { agentClient, callTimeout, type LlmSettings } from "../../llm/options.js";
import type { Agent, AgentContext, AgentOutcome } from "../types.js";
import { runResearchAgent } from "../../mlagentbench/agent/loop.js";

/** How the research agent is configured for an MLE-bench run. */
export interface MlabOptions extends LlmSettings {
  /** Agent steps, and environment steps (as in the reference, one limit for both); default 50. */
  steps?: number;
  /** Keep a research log and retrieve from it instead of showing old steps. */
  retrieval?: boolean;
  /** Time limit of one Execute Script, ms; default one hour, never past the run's deadline. */
  execTimeoutMs?: number;
  temperature?: number;
  /** The Python that Execute Script runs inside the sandbox. */
  python?: string;
}

/** Files the agent keeps in its records (the run's logs folder once the run is over). */
export const MLAB_FILES = { dir: "mlab", trace: "mlab/trace", usage: "mlab/usage.json", llmLog: "llm.jsonl" } as const;

const DEFAULT_STEPS = 50;
const DEFAULT_EXEC_TIMEOUT_MS = 3_600_000;
/** Execute Script keeps this many bytes of stdout and of stderr for the observation. */
const OUTPUT_CAP = 100_000;

/** The research agent (`--agent mlab`). */
export function mlabAgent(options: MlabOptions): Agent {
  return { id: "mlab", env: {}, secretNames: [], allowHosts: [], files: {}, run: (ctx) => runMlab(ctx, options) };
}

/** The research problem: the benchmark's instructions, plus how the workspace maps to them. */
export function mlabProblem(ctx: AgentContext): string {
  const p = ctx.sandbox.paths;
  return (
    `${ctx.instructions.trim()}\n\nHow your tools see the files: file actions take paths relative to your workspace (${p.workspace}), ` +
    `where data/ is the competition's read-only data (${p.data}; start with data/description.md) and submission/ is ${p.submission}, ` +
    `where your code must write submission.csv. Execute Script runs a python script from the workspace.`
  );
}

async function runMlab(ctx: AgentContext, options: MlabOptions): Promise<AgentOutcome> {
  const p = ctx.sandbox.paths;
  const host = ctx.hostPaths;
  const logDir = path.join(ctx.records, MLAB_FILES.dir);
  fs.mkdirSync(logDir, { recursive: true });
  const note = (line: string) => {
    fs.appendFileSync(ctx.agentLog, `[mlab] ${line}\n`);
    ctx.log(`mlab: ${line}`);
  };
  const client = agentClient(options, path.join(ctx.records, MLAB_FILES.llmLog), note);
  const callTimeoutMs = callTimeout(options, ctx.deadline);

  // The data and submission folders appear inside the workspace, for scripts as for file actions.
  const link = await ctx.sandbox.exec(
    ["/bin/sh", "-c", 'ln -sfn "$1" "$3/data" && ln -sfn "$2" "$3/submission"', "link", p.data, p.submission, p.workspace],
    { timeoutMs: 60_000 },
  );
  if (link.exitCode !== 0) note(`could not link data/ and submission/ into the workspace: ${link.stderr.trim()}`);

  // The run can end under the agent (interruption, memory, disk); the loop must stop then.
  const watch = watchRunEnd(ctx.sandbox);
  const env = new Environment({
    workspace: host.workspace,
    sandbox: watch.sandbox,
    sandboxWorkspace: p.workspace,
    python: options.python ?? "/usr/bin/python3",
    llm: client,
    researchProblem: mlabProblem(ctx),
    maxSteps: options.steps ?? DEFAULT_STEPS,
    maxTimeMs: Number.isFinite(ctx.deadline) ? ctx.deadline - Date.now() : Number.MAX_SAFE_INTEGER,
    execTimeoutMs: options.execTimeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
    outputCap: OUTPUT_CAP,
    traceDir: path.join(ctx.records, MLAB_FILES.trace),
    owner: ctx.sandbox.agentOwner,
    aliases: { data: { host: host.data, readOnly: true }, submission: { host: host.submission, readOnly: false } },
    // Under --obfuscate the sandbox shows another description.md; the file actions must show the same.
    overlays: host.description !== undefined ? { "data/description.md": host.description } : undefined,
  });
  const guarded = {
    isFinal: () => watch.ended() !== null || Date.now() >= ctx.deadline || env.isFinal(),
    step: (name: string, input: unknown) => env.step(name, input),
  };
  const result = await runResearchAgent(guarded, {
    llm: client,
    problem: mlabProblem(ctx),
    maxSteps: options.steps ?? DEFAULT_STEPS,
    retrieval: options.retrieval ?? false,
    temperature: options.temperature,
    logDir,
    callTimeoutMs,
    note,
  });
  writeFileAtomic(path.join(ctx.records, MLAB_FILES.usage), JSON.stringify({ ...result, usage: client.totals() }, null, 2) + "\n");
  note(`stopped (${result.stop}) after ${result.steps} steps${result.error ? `: ${result.error}` : ""}`);
  const last = watch.ended();
  if (last) return { reason: last.reason, exitCode: last.exitCode, signal: last.signal };
  if (Date.now() >= ctx.deadline) return { reason: "time_limit", exitCode: null, signal: null };
  const ok = result.stop === "final_answer" || result.stop === "env_final" || result.stop === "max_steps";
  return ok ? { reason: "finished", exitCode: 0, signal: null } : { reason: "crashed", exitCode: 1, signal: null };
}
