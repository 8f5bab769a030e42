/** One research run: a task's workspace, the action environment in a sandbox, an agent, and the run's record. */
import fs from "node:fs";
import path from "node:path";
import { runResearchAgent, type ResearchStop } from "./agent/loop.js";
import { agentClient, callTimeout, type LlmSettings } from "../llm/options.js";
import { RESEARCH_RUN_SCHEMA, writeResearchRunRecord, type ResearchRunRecord, type ResearchRunStatus } from "../results/research-record.js";
import type { Limits, Sandbox, SandboxBackend } from "../sandbox/types.js";
import { watchRunEnd } from "../sandbox/watch.js";
import { Environment } from "./env/environment.js";
import { createTaskSandbox } from "./sandbox.js";
import { PYTHON } from "./tasks/runner.js";
import type { ResearchTask, TaskContext } from "./tasks/types.js";
import { removeTree } from "../io/remove-tree.js";

/** The research agent's settings for a run (`--agent mlab`); absent for the baseline agent. */
export interface ResearchAgentSettings extends LlmSettings {
  /** Agent steps (default 50). */
  steps?: number;
  retrieval?: boolean;
  temperature?: number;
}

/** Everything one research run needs. */
export interface ResearchRunOptions {
  task: ResearchTask;
  seed: number;
  /** The run's folder: workspace/, trace/, logs/ and run.json go here. */
  runDir: string;
  ctx: TaskContext;
  backend: SandboxBackend;
  /** Sandbox limits; wallMs is the episode's time limit too. */
  limits: Limits;
  /** "mlab" (the research agent; needs `mlab`) or "baseline" (runs train.py once and stops, as the reference's base agent). */
  agent: "mlab" | "baseline";
  mlab?: ResearchAgentSettings;
  /** Environment steps (default 50, the reference's). */
  maxEnvSteps?: number;
  /** Time limit of one Execute Script, ms (default 1 h). */
  execTimeoutMs?: number;
  /** Bytes of a script's stdout and stderr kept (default 100 000). */
  outputCap?: number;
  /** Set when the user interrupts: the loop stops at its next step. */
  signal?: AbortSignal;
  /** One progress line. */
  note?: (line: string) => void;
}

/** The folders of a research run. */
export function researchRunPaths(runDir: string) {
  return {
    workspace: path.join(runDir, "workspace"),
    trace: path.join(runDir, "trace"),
    logs: path.join(runDir, "logs"),
    scratch: path.join(runDir, "sandbox"),
    record: path.join(runDir, "run.json"),
  };
}

/** Run one agent on one task and write run.json (also when the run fails). */
export async function runResearch(opts: ResearchRunOptions): Promise<ResearchRunRecord> {
  const dirs = researchRunPaths(opts.runDir);
  if (fs.existsSync(dirs.record)) throw new Error(`${opts.runDir} already holds a run (run.json exists); use a new run group`);
  fs.mkdirSync(dirs.logs, { recursive: true });
  const note = (line: string) => {
    fs.appendFileSync(path.join(dirs.logs, "run.log"), `${new Date().toISOString()} ${line}\n`);
    opts.note?.(line);
  };
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const client = opts.agent === "mlab" ? agentClient(opts.mlab!, path.join(dirs.logs, "llm.jsonl"), note) : null;
  let sandbox: Sandbox | null = null;
  let env: Environment | null = null;
  let status: ResearchRunStatus = "error";
  let stop: ResearchStop | null = null;
  let finalAnswer: string | null = null;
  let error: string | null = null;
  try {
    await opts.task.prepare(dirs.workspace, opts.ctx);
    // A sandbox id keeps only its last 60 characters (it names cgroups and containers): the group folder's
    // fixed infix is left out so the time that tells concurrent groups apart survives the cut.
    const group = path.basename(path.dirname(opts.runDir)).replace(/_(?:mlagentbench|mlab)-group_/, "_");
    sandbox = await createTaskSandbox(opts.task, { workspace: dirs.workspace, scratch: dirs.scratch }, opts.backend, opts.limits, {
      seed: opts.seed,
      id: `mlab-${group}-${path.basename(opts.runDir)}`,
    });
    const watch = watchRunEnd(sandbox);
    const maxTimeMs = opts.limits.wallMs ?? Number.MAX_SAFE_INTEGER;
    const deadline = started + maxTimeMs;
    env = new Environment({
      workspace: dirs.workspace,
      readOnly: opts.task.readOnly,
      sandbox: watch.sandbox,
      sandboxWorkspace: sandbox.paths.workspace,
      python: PYTHON,
      llm: client ?? undefined,
      researchProblem: opts.task.statement,
      maxSteps: opts.maxEnvSteps ?? 50,
      maxTimeMs,
      execTimeoutMs: opts.execTimeoutMs ?? 3_600_000,
      outputCap: opts.outputCap ?? 100_000,
      traceDir: dirs.trace,
      owner: sandbox.agentOwner,
    });
    const live = env;
    const guarded = {
      isFinal: () => watch.ended() !== null || opts.signal?.aborted === true || live.isFinal(),
      step: (name: string, input: unknown) => live.step(name, input),
    };
    if (opts.agent === "baseline") {
      await guarded.step("Execute Script", { script_name: "train.py" });
      finalAnswer = "The starter code, run once unchanged.";
      await guarded.step("Final Answer", { final_answer: finalAnswer });
      stop = "final_answer";
    } else {
      const result = await runResearchAgent(guarded, {
        llm: client!,
        problem: opts.task.statement,
        maxSteps: opts.mlab!.steps ?? 50,
        retrieval: opts.mlab!.retrieval ?? false,
        temperature: opts.mlab!.temperature,
        logDir: path.join(dirs.logs, "agent"),
        callTimeoutMs: callTimeout(opts.mlab!, deadline),
        note,
      });
      stop = result.stop;
      finalAnswer = result.finalAnswer;
      error = result.error;
    }
    const endedBy = watch.ended();
    if (opts.signal?.aborted || endedBy?.reason === "interrupted") status = "interrupted";
    else if (endedBy) {
      status = "error";
      error = `the sandbox ended the run: ${endedBy.reason}`;
    } else if (stop === "llm_error" || stop === "no_valid_response") status = "error";
    else if (Date.now() - started > maxTimeMs) status = "time_limit";
    else if (stop === "final_answer") status = "finished";
    else status = "step_limit";
  } catch (e) {
    status = "error";
    error = e instanceof Error ? e.message : String(e);
    note(`run failed: ${error}`);
  } finally {
    await sandbox?.close().catch((e: unknown) => note(`closing the sandbox failed: ${(e as Error).message}`));
    removeTree(dirs.scratch);
  }
  const totals = client?.totals();
  const record: ResearchRunRecord = {
    schema: RESEARCH_RUN_SCHEMA,
    task: opts.task.name,
    seed: opts.seed,
    agent: opts.agent,
    model: opts.mlab?.model ?? null,
    status,
    stop,
    final_answer: finalAnswer,
    started_at: startedAt,
    ended_at: new Date().toISOString(),
    wall_seconds: (Date.now() - started) / 1000,
    steps: env?.stepCount() ?? 0,
    usage: {
      calls: totals?.calls ?? 0,
      input_tokens: totals?.inputTokens ?? 0,
      output_tokens: totals?.outputTokens ?? 0,
      cost_usd: totals?.costUsd ?? 0,
    },
    error,
  };
  writeResearchRunRecord(dirs.record, record);
  note(`run ended: ${status}${error ? ` (${error})` : ""}`);
  return record;
}
