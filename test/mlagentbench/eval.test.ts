import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidSubmissionError } from "../../src/core/errors.js";
import { Environment } from "../../src/mlagentbench/env/environment.js";
import {
  evaluateGroup,
  evaluateRun,
  hostRunnerHandle,
  bestCurve,
  bestSoFar,
  improvement,
  renderEvalMarkdown,
  subsampleSteps,
  successAt,
  workspaceAtStep,
  EvalSummarySchema,
  readRunEval,
  type EvalOptions,
  type RunEval,
} from "../../src/mlagentbench/eval/index.js";
import { getTask } from "../../src/mlagentbench/tasks/registry.js";
import type { Direction, ResearchTask, TaskRunner } from "../../src/mlagentbench/tasks/types.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";
import { localTestSandbox } from "../helpers/local-sandbox.js";

const CTX = { dataDir: tempDir("mlab-eval-data-") };

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

/** A task scored by the number in result.txt (read through the runner), with one read-only data file. */
function toyTask(direction: Direction, baseline: number | null, starter: Record<string, string> = {}): ResearchTask & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    name: "toy",
    statement: "Make result.txt hold a better number.",
    metric: "the number in result.txt",
    direction,
    filesDir: "/nonexistent",
    readOnly: ["data.txt"],
    hiddenSources: () => [],
    needsDownload: false,
    baseline: baseline === null ? null : { score: baseline, measuredAt: "2026-01-01T00:00:00.000Z", machine: "test" },
    async prepare(ws) {
      fs.mkdirSync(ws, { recursive: true });
      fs.writeFileSync(path.join(ws, "data.txt"), "read only\n");
      fs.writeFileSync(path.join(ws, "notes.md"), "starter\n");
      for (const [name, text] of Object.entries(starter)) fs.writeFileSync(path.join(ws, name), text);
    },
    async score(ws, runner: TaskRunner) {
      const run = await runner({ argv: ["/bin/cat", "result.txt"], timeoutMs: 10_000 });
      calls.push(run.stdout);
      // Scoring may write into the workspace; the run's own record must not see it.
      fs.writeFileSync(path.join(ws, "scored.txt"), "x");
      if (run.exitCode !== 0) throw new InvalidSubmissionError("result.txt is missing");
      return Number(run.stdout);
    },
  };
}

type Action = [string, Record<string, unknown>];

const write = (content: string, file = "result.txt"): Action => ["Write File", { file_name: file, content }];
const FINAL: Action = ["Final Answer", { final_answer: "done" }];

/** Drive the real environment through `actions` in a run folder `<group>/<task>-seed<seed>` and write its run.json. */
async function makeRun(
  groupDir: string,
  task: ResearchTask,
  seed: number,
  actions: Action[],
  extra: { snapshotMaxBytes?: number; record?: boolean | "legacy" } = {},
): Promise<string> {
  const runDir = path.join(groupDir, `${task.name}-seed${seed}`);
  const ws = path.join(runDir, "workspace");
  await task.prepare(ws, CTX);
  const dirs = Object.fromEntries(["submission", "code", "logs"].map((d) => [d, path.join(runDir, "sb", d)])) as Record<string, string>;
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const sandbox = await localTestSandbox(`mlab-eval-${path.basename(groupDir)}-${seed}`, ws, { submission: dirs.submission, code: dirs.code, logs: dirs.logs, workspace: ws });
  sandboxes.push(sandbox);
  const env = new Environment({
    workspace: ws,
    readOnly: task.readOnly,
    sandbox,
    sandboxWorkspace: ws,
    python: "/usr/bin/python3",
    maxSteps: 50,
    maxTimeMs: 60_000,
    execTimeoutMs: 20_000,
    outputCap: 1 << 20,
    traceDir: path.join(runDir, "trace"),
    snapshotMaxBytes: extra.snapshotMaxBytes,
  });
  for (const [name, args] of actions) await env.step(name, args);
  if (extra.record !== false) {
    const finalAnswer = actions.some(([n]) => n === "Final Answer") ? "done" : null;
    // "legacy": the camelCase record earlier releases wrote, which evaluation must still read.
    const record = extra.record === "legacy"
      ? {
          schema: "mlab-run/1", task: task.name, seed, agent: "scripted", model: null, status: "finished", finalAnswer,
          startedAt: "2026-01-01T00:00:00.000Z", endedAt: "2026-01-01T00:01:40.000Z", wallSeconds: 100 * seed, steps: actions.length,
          usage: { calls: 2, inputTokens: 1000 * seed, outputTokens: 10 * seed, costUsd: 0.5 * seed }, error: null,
        }
      : {
          schema: "mlagentbench-run/1", task: task.name, seed, agent: "scripted", model: null, status: "finished", stop: finalAnswer ? "final_answer" : "max_steps",
          final_answer: finalAnswer, started_at: "2026-01-01T00:00:00.000Z", ended_at: "2026-01-01T00:01:40.000Z", wall_seconds: 100 * seed, steps: actions.length,
          usage: { calls: 2, input_tokens: 1000 * seed, output_tokens: 10 * seed, cost_usd: 0.5 * seed }, error: null,
        };
    fs.writeFileSync(path.join(runDir, "run.json"), JSON.stringify(record));
  }
  return runDir;
}

/** The fields of eval.json in the order they are written. */
const EVAL_KEYS = [
  "schema", "run", "task", "seed", "agent", "model", "status", "error", "direction", "improvement_of", "baseline", "baseline_source", "baseline_error",
  "final_score", "final_error", "steps", "steps_error", "states_scored", "best_score", "best_step", "improvement", "best_improvement",
  "success", "submitted_final_answer", "num_steps", "tokens", "cost_usd", "wall_seconds", "evaluated_at",
];

function options(task: ResearchTask, more: Partial<EvalOptions> = {}): EvalOptions {
  return { ctx: CTX, makeRunner: hostRunnerHandle, getTask: () => task, tmpDir: tempDir("mlab-eval-tmp-"), ...more };
}

describe("improvement and subsampling", () => {
  it("computes relative improvement in both directions and success at each threshold", () => {
    expect(improvement(1.2, 1, "higher")).toBeCloseTo(0.2, 12);
    expect(improvement(0.7, 1, "lower")).toBeCloseTo(0.3, 12);
    expect(improvement(-0.5, -1, "higher")).toBeCloseTo(0.5, 12);
    expect(improvement(-1.5, -1, "lower")).toBeCloseTo(0.5, 12);
    expect(improvement(1, 0, "higher")).toBeNull();
    expect(improvement(null, 1, "higher")).toBeNull();
    expect(successAt(0.15)).toEqual({ "5": true, "10": true, "15": true, "20": false, "30": false });
    expect(successAt(0.0999)).toEqual({ "5": true, "10": false, "15": false, "20": false, "30": false });
    expect(successAt(null)).toEqual({ "5": false, "10": false, "15": false, "20": false, "30": false });
  });

  it("measures the improvement of a near-perfect score on its error when the task says so", () => {
    // Titanic's starter: 0.78117 accuracy; 0.8031 has a 10.03% smaller error (0.21883 → 0.1969).
    expect(improvement(0.8031, 0.78117, "higher", "error")).toBeCloseTo((0.21883 - 0.1969) / 0.21883, 12);
    expect(successAt(improvement(0.8031, 0.78117, "higher", "error"))["10"]).toBe(true);
    expect(successAt(improvement(0.8031, 0.78117, "higher", "score"))["10"]).toBe(false);
    expect(improvement(0.99, 0.995, "higher", "error")).toBeCloseTo(-1, 12);
    expect(improvement(1, 1, "higher", "error")).toBeNull();
    expect(improvement(null, 0.9, "higher", "error")).toBeNull();
    expect(() => improvement(3, 4, "lower", "error")).toThrow(/higher-is-better/);
  });

  it("subsamples like the reference evaluation: every ⌊n/50⌋-th step, at most 50", () => {
    expect(subsampleSteps(3, 50)).toEqual([0, 1, 2]);
    expect(subsampleSteps(50, 50)).toHaveLength(50);
    const s = subsampleSteps(120, 50);
    expect(s).toHaveLength(50);
    expect(s.slice(0, 3)).toEqual([0, 2, 4]);
    expect(s[49]).toBe(98);
    expect(subsampleSteps(175, 50).slice(0, 3)).toEqual([0, 3, 6]);
    expect(subsampleSteps(5, 2)).toEqual([0, 2]);
  });
});

describe("best-so-far curves", () => {
  const run = (direction: Direction, numSteps: number, scores: [number, number | null][], finalScore: number | null) =>
    ({ direction, num_steps: numSteps, final_score: finalScore, steps: scores.map(([step, score]) => ({ step, score, error: null, missing: [] })) }) as unknown as RunEval;

  it("keeps the best score so far per step, counting the final workspace as the last step", () => {
    expect(bestSoFar(run("lower", 5, [[0, 0.9], [2, 0.7], [4, null]], 0.8))).toEqual([0.9, 0.9, 0.7, 0.7, 0.7]);
    expect(bestSoFar(run("higher", 3, [[0, null]], 0.6))).toEqual([null, null, 0.6]);
    expect(bestSoFar(run("higher", 0, [], null))).toEqual([]);
  });

  it("averages runs, carrying a shorter run's last value to the longest run's end", () => {
    const curve = bestCurve([run("higher", 2, [[0, 1], [1, 3]], 3), run("higher", 4, [[0, 2], [1, null], [2, 5], [3, 5]], 5), run("higher", 1, [[0, null]], null)]);
    expect(curve).toEqual([
      { step: 0, mean: 1.5, sem: 0.5, runs: 2 },
      { step: 1, mean: 2.5, sem: 0.5, runs: 2 },
      { step: 2, mean: 4, sem: 1, runs: 2 },
      { step: 3, mean: 4, sem: 1, runs: 2 },
    ]);
  });
});

describe("evaluateRun", () => {
  it("scores each step, the final workspace and the improvement (higher is better)", async () => {
    const task = toyTask("higher", 1.0);
    const group = tempDir("mlab-eval-group-");
    const runDir = await makeRun(group, task, 1, [write("1.05"), write("1.2"), FINAL]);
    const before = fs.readdirSync(path.join(runDir, "workspace")).sort();
    const ev = await evaluateRun(runDir, options(task));
    expect(ev.steps).toEqual([
      { step: 0, score: 1.05, error: null, missing: [] },
      { step: 1, score: 1.2, error: null, missing: [] },
      { step: 2, score: 1.2, error: null, missing: [] },
    ]);
    expect(ev.final_score).toBe(1.2);
    expect(ev.final_error).toBeNull();
    expect(ev.best_score).toBe(1.2);
    expect(ev.best_step).toBe(1);
    expect(ev.improvement).toBeCloseTo(0.2, 12);
    expect(ev.best_improvement).toBeCloseTo(0.2, 12);
    expect(ev.success).toEqual({ "5": true, "10": true, "15": true, "20": true, "30": false });
    expect(ev.baseline).toBe(1);
    expect(ev.baseline_source).toBe("recorded");
    expect(ev.submitted_final_answer).toBe(true);
    expect(ev.num_steps).toBe(3);
    expect(ev.tokens).toBe(1010);
    expect(ev.cost_usd).toBe(0.5);
    expect(ev.wall_seconds).toBe(100);
    expect(ev.status).toBe("finished");
    // Steps 1 and 2 hold the same files: two states scored, plus the final workspace.
    expect(ev.states_scored).toBe(2);
    expect(task.calls).toEqual(["1.2", "1.05", "1.2"]);
    // Scoring ran on copies: the run's workspace is as the agent left it.
    expect(fs.readdirSync(path.join(runDir, "workspace")).sort()).toEqual(before);
    expect(before).not.toContain("scored.txt");
    const saved = JSON.parse(fs.readFileSync(path.join(runDir, "eval.json"), "utf8")) as RunEval;
    expect(saved.final_score).toBe(1.2);
    expect(saved.steps.map((s) => s.score)).toEqual([1.05, 1.2, 1.2]);
    // snake_case like the run records, schema first, and what is written reads back as it was returned.
    expect(Object.keys(saved)).toEqual(EVAL_KEYS);
    expect(saved.schema).toBe("mlagentbench-eval/1");
    expect(readRunEval(path.join(runDir, "eval.json"))).toEqual(ev);
  });

  it("measures improvement the other way when lower is better", async () => {
    const task = toyTask("lower", 1.0);
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [write("0.9"), write("0.7"), write("0.95"), FINAL]);
    const ev = await evaluateRun(runDir, options(task));
    expect(ev.steps.map((s) => s.score)).toEqual([0.9, 0.7, 0.95, 0.95]);
    expect(ev.final_score).toBe(0.95);
    expect(ev.improvement).toBeCloseTo(0.05, 12);
    expect(ev.best_score).toBe(0.7);
    expect(ev.best_step).toBe(1);
    expect(ev.best_improvement).toBeCloseTo(0.3, 12);
    expect(ev.success).toEqual({ "5": true, "10": false, "15": false, "20": false, "30": false });
  });

  it("reports a final state that cannot be scored as a failure, with the scorer's reason", async () => {
    const task = toyTask("higher", 1.0);
    const rm = "import os\nos.remove('result.txt')\n";
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [write("2"), write(rm, "rm.py"), ["Execute Script", { script_name: "rm.py" }]]);
    const ev = await evaluateRun(runDir, options(task));
    expect(ev.steps).toEqual([
      { step: 0, score: 2, error: null, missing: [] },
      { step: 1, score: 2, error: null, missing: [] },
      { step: 2, score: null, error: "result.txt is missing", missing: [] },
    ]);
    expect(ev.final_score).toBeNull();
    expect(ev.final_error).toBe("result.txt is missing");
    expect(ev.improvement).toBeNull();
    expect(ev.best_score).toBe(2);
    expect(ev.best_improvement).toBeCloseTo(1, 12);
    expect(ev.success).toEqual({ "5": false, "10": false, "15": false, "20": false, "30": false });
    expect(ev.submitted_final_answer).toBe(false);
  });

  it("scores identical states once, however many steps share them", async () => {
    const task = toyTask("higher", 1.0);
    const look: Action = ["List Files", { dir_path: "." }];
    const log: Action = ["Append Summary to Research Log", { content: "tried nothing" }];
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [write("1.1"), look, log, look, write("1.3"), look, FINAL]);
    const ev = await evaluateRun(runDir, options(task, { steps: true }));
    expect(ev.steps.map((s) => s.score)).toEqual([1.1, 1.1, 1.1, 1.1, 1.3, 1.3, 1.3]);
    expect(ev.states_scored).toBe(2);
    expect(task.calls).toHaveLength(3);
  });

  it("scores at most maxSteps subsampled steps, and none when steps are off", async () => {
    const task = toyTask("higher", 1.0);
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [write("1.1"), write("1.2"), write("1.3"), write("1.4"), FINAL]);
    const ev = await evaluateRun(runDir, options(task, { maxSteps: 2 }));
    expect(ev.steps.map((s) => [s.step, s.score])).toEqual([[0, 1.1], [2, 1.3]]);
    expect(ev.best_score).toBe(1.4);
    expect(ev.best_step).toBe(4);
    const off = await evaluateRun(runDir, options(task, { steps: false }));
    expect(off.steps).toEqual([]);
    expect(off.final_score).toBe(1.4);
    expect(off.states_scored).toBe(0);
  });

  it("reports a run without run.json as an error run and still scores what it left", async () => {
    const task = toyTask("higher", 1.0);
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 7, [write("1.3")], { record: false });
    const ev = await evaluateRun(runDir, options(task));
    expect(ev.status).toBe("error");
    expect(ev.error).toBe(`${path.join(runDir, "run.json")} is missing: the run ended before writing its record`);
    expect(ev.task).toBe("toy");
    expect(ev.seed).toBe(7);
    expect(ev.final_score).toBe(1.3);
    expect(ev.num_steps).toBe(1);
    expect(ev.tokens).toBeNull();
    expect(fs.existsSync(path.join(runDir, "eval.json"))).toBe(true);

    const bad = path.join(tempDir("mlab-eval-group-"), "toy-seed2");
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, "run.json"), JSON.stringify({ schema: "mlab-run/1", task: "toy", seed: "two" }));
    const evBad = await evaluateRun(bad, options(task));
    expect(evBad.status).toBe("error");
    expect(evBad.error).toContain(`${path.join(bad, "run.json")} is not a valid research run record (mlab-run/1): seed:`);
    expect(evBad.final_error).toBe(`there is no final workspace: ${path.join(bad, "workspace")} does not exist`);
    expect(evBad.steps_error).toContain("trace.json: it does not exist");
  });

  it("evaluates a run recorded by an earlier release (mlab-run/1, camelCase) like a current one", async () => {
    const task = toyTask("higher", 1.0);
    const current = await evaluateRun(await makeRun(tempDir("mlab-eval-group-"), task, 2, [write("1.1"), FINAL]), options(task));
    const legacy = await evaluateRun(await makeRun(tempDir("mlab-eval-group-"), task, 2, [write("1.1"), FINAL], { record: "legacy" }), options(task));
    const effort = (e: RunEval) => [e.status, e.error, e.agent, e.model, e.seed, e.submitted_final_answer, e.num_steps, e.tokens, e.cost_usd, e.wall_seconds, e.final_score];
    expect(effort(legacy)).toEqual(["finished", null, "scripted", null, 2, true, 2, 2020, 1, 200, 1.1]);
    expect(effort(current)).toEqual(effort(legacy));
  });

  it("measures the starter code when the task has no recorded baseline", async () => {
    const task = toyTask("higher", null, { "result.txt": "0.5" });
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [write("0.6"), FINAL]);
    const ev = await evaluateRun(runDir, options(task, { steps: false }));
    expect(ev.baseline).toBe(0.5);
    expect(ev.baseline_source).toBe("measured");
    expect(ev.improvement).toBeCloseTo(0.2, 12);
    expect(task.calls).toEqual(["0.5", "0.6"]);
  });
});

describe("workspaceAtStep", () => {
  it("rebuilds each step's files, applies deletions and names files too large to restore", async () => {
    const task = toyTask("higher", 1.0);
    const rm = "import os\nos.remove('result.txt')\nos.remove('notes.md')\n";
    const big = "y".repeat(300);
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [
      write("2"),
      write(rm, "rm.py"),
      write(big, "big.txt"),
      ["Execute Script", { script_name: "rm.py" }],
      write("small", "big.txt"),
    ], { snapshotMaxBytes: 200 });
    const at = async (step: number) => {
      const dir = path.join(tempDir("mlab-eval-ws-"), "ws");
      const rec = await workspaceAtStep(task, runDir, step, dir, CTX);
      const files = Object.fromEntries(
        fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => {
          const rel = path.relative(dir, path.join(e.parentPath, e.name));
          return [rel, fs.readFileSync(path.join(dir, rel), "utf8")];
        }),
      );
      return { missing: rec.missing, files };
    };
    expect(await at(0)).toEqual({ missing: [], files: { "data.txt": "read only\n", "notes.md": "starter\n", "result.txt": "2" } });
    expect((await at(1)).files["rm.py"]).toBe(rm);
    expect(await at(2)).toEqual({ missing: ["big.txt"], files: { "data.txt": "read only\n", "notes.md": "starter\n", "result.txt": "2", "rm.py": rm } });
    expect(await at(3)).toEqual({ missing: ["big.txt"], files: { "data.txt": "read only\n", "rm.py": rm } });
    expect(await at(4)).toEqual({ missing: [], files: { "data.txt": "read only\n", "rm.py": rm, "big.txt": "small" } });
    await expect(workspaceAtStep(task, runDir, 5, path.join(tempDir("mlab-eval-ws-"), "ws"), CTX)).rejects.toThrow("Step 5 is not in the trace");
    const ev = await evaluateRun(runDir, options(task));
    expect(ev.steps.map((s) => s.missing)).toEqual([[], [], ["big.txt"], ["big.txt"], []]);
  });

  it("drops a starter file removed during the first step, which no snapshot lists", async () => {
    const task = toyTask("higher", 1.0, { "clean.py": "import os\nos.remove('notes.md')\n", "result.txt": "1.0" });
    const runDir = await makeRun(tempDir("mlab-eval-group-"), task, 1, [["Execute Script", { script_name: "clean.py" }], write("1.1")]);
    const dir = path.join(tempDir("mlab-eval-ws-"), "ws");
    expect(await workspaceAtStep(task, runDir, 0, dir, CTX)).toEqual({ missing: [] });
    expect(fs.readdirSync(dir).sort()).toEqual(["clean.py", "data.txt", "result.txt"]);
    await expect(evaluateRun(runDir, options(task, { maxSteps: 0 }))).rejects.toThrow("maxSteps must be a positive whole number of steps, got 0");
  });
});

describe("evaluateGroup", () => {
  it("summarises success with SEM over runs, the best-score curve and renders tables", async () => {
    const task = toyTask("higher", 1.0);
    const group = tempDir("mlab-eval-group-");
    fs.writeFileSync(
      path.join(group, "group.json"),
      JSON.stringify({ schema: "mlagentbench-group/1", id: "g1", agent: "scripted", model: "none", tasks: ["toy"], seeds: [1, 2, 3], created_at: "2026-01-01T00:00:00Z" }),
    );
    await makeRun(group, task, 1, [write("1.1"), write("1.2"), FINAL]);
    await makeRun(group, task, 2, [write("1.15"), FINAL]);
    await makeRun(group, task, 3, [write("1.0"), FINAL]);
    const summary = await evaluateGroup(group, options(task));
    expect(summary.tasks).toHaveLength(1);
    const t = summary.tasks[0];
    expect(t.runs).toBe(3);
    expect(t.success["10"].mean).toBeCloseTo(2 / 3, 12);
    expect(t.success["10"].sem).toBeCloseTo(1 / 3, 12);
    expect(t.success["20"].mean).toBeCloseTo(1 / 3, 12);
    expect(t.success["20"].sem).toBeCloseTo(1 / 3, 12);
    expect(t.success["30"].mean).toBe(0);
    expect(t.success["30"].sem).toBe(0);
    expect(t.improvement!.mean).toBeCloseTo(0.35 / 3, 12);
    // sample sd of (0.2, 0.15, 0) over sqrt(3)
    expect(t.improvement!.sem).toBeCloseTo(Math.sqrt(0.0216666666666667 / 2) / Math.sqrt(3), 10);
    expect(t.mean_tokens).toBeCloseTo((1010 + 2020 + 3030) / 3, 9);
    expect(t.mean_cost_usd).toBeCloseTo(1, 12);
    expect(t.mean_wall_seconds).toBe(200);
    expect(t.final_answer_share).toBe(1);
    expect(t.errors).toBe(0);
    expect(t.curve.map((p) => [p.step, Number(p.mean.toFixed(6)), p.runs])).toEqual([
      [0, 1.083333, 3],
      [1, 1.116667, 3],
      [2, 1.116667, 3],
    ]);
    const md = renderEvalMarkdown(summary);
    expect(md).toContain("| toy | higher | score | 1 (recorded) | 3 | 66.7 ± 33.3 | 66.7 ± 33.3 | 66.7 ± 33.3 | 33.3 ± 33.3 | 0.0 ± 0.0 | 11.7 ± 6.0 | 11.7 ± 6.0 | 100.0 | 2020 | 1.00 | 3m20s | 0 | 0 |");
    expect(md).toContain("| toy-seed1 | toy | 1 | finished | 1.2 | 1.2 | 20.0 | 3 | 1010 |  |");
    expect(md).toContain("| toy-seed3 | toy | 3 | finished | 1 | 1 | 0.0 | 2 | 3030 |  |");
    const onDisk = JSON.parse(fs.readFileSync(path.join(group, "eval", "summary.json"), "utf8"));
    expect(onDisk.tasks[0].success["10"].mean).toBeCloseTo(2 / 3, 12);
    expect(summary.group).toEqual({ id: "g1", agent: "scripted", model: "none" });
    expect(summary.group_error).toBeNull();
    // snake_case, schema first; the file matches its schema and is the summary returned.
    expect(Object.keys(onDisk)).toEqual(["schema", "group_dir", "group", "group_error", "created_at", "thresholds", "tasks", "runs"]);
    expect(onDisk.schema).toBe("mlagentbench-eval-summary/1");
    expect(Object.keys(onDisk.tasks[0])).toEqual([
      "task", "direction", "improvement_of", "baseline", "baseline_source", "runs", "success", "improvement", "best_improvement",
      "mean_tokens", "mean_cost_usd", "mean_wall_seconds", "final_answer_share", "errors", "unscored", "curve",
    ]);
    expect(Object.keys(onDisk.runs[0])).toEqual(["run", "task", "seed", "status", "final_score", "best_score", "improvement", "num_steps", "tokens", "note"]);
    expect(EvalSummarySchema.parse(onDisk)).toEqual(summary);
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(group, "toy-seed1", "eval.json"), "utf8")))).toEqual(EVAL_KEYS);
    expect(fs.readFileSync(path.join(group, "eval", "summary.md"), "utf8")).toBe(md);
    const html = fs.readFileSync(path.join(group, "eval", "summary.html"), "utf8");
    expect(html).toContain('id="chart-success-10"');
    expect(html).toContain('data-category="toy" data-value="66.66666666666666"');
    expect(html).toContain('id="chart-curve-0"');
    expect(html).toContain("<td>toy-seed2</td>");
    const embedded = /<script type="application\/json" id="eval-data">(.*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(embedded)).toEqual(onDisk);
  });

  it("reports runs group.json promises but that left no record as errors; reads an earlier release's group.json", async () => {
    const task = toyTask("higher", 1.0);
    const group = tempDir("mlab-eval-group-");
    fs.writeFileSync(
      path.join(group, "group.json"),
      JSON.stringify({ schema: "mlab-group/1", id: "g2", agent: "scripted", model: null, tasks: ["toy"], seeds: [1, 2], createdAt: "2026-01-01T00:00:00Z" }),
    );
    await makeRun(group, task, 1, [write("1.2"), FINAL]);
    const summary = await evaluateGroup(group, options(task, { steps: false }));
    // The camelCase "mlab-group/1" record is converted, not reported as unreadable.
    expect(summary.group_error).toBeNull();
    expect(summary.group).toEqual({ id: "g2", agent: "scripted", model: null });
    expect(summary.runs.map((r) => [r.run, r.status, r.final_score])).toEqual([
      ["toy-seed1", "finished", 1.2],
      ["toy-seed2", "error", null],
    ]);
    expect(summary.runs[1].note).toBe(`The run folder ${path.join(group, "toy-seed2")} does not exist: the run never started or was removed`);
    expect(summary.tasks[0].errors).toBe(1);
    expect(summary.tasks[0].unscored).toBe(1);
    expect(summary.tasks[0].success["10"].mean).toBe(0.5);
    await expect(evaluateGroup(path.join(group, "nope"), options(task))).rejects.toThrow("does not exist");
  });

  it("evaluates the runs it finds when group.json is malformed, naming the file in the summary", async () => {
    const task = toyTask("higher", 1.0);
    const group = tempDir("mlab-eval-group-");
    fs.writeFileSync(path.join(group, "group.json"), JSON.stringify({ schema: "mlagentbench-group/1", id: 3, agent: "scripted", tasks: ["toy"], seeds: [1] }));
    await makeRun(group, task, 1, [write("1.2"), FINAL]);
    const summary = await evaluateGroup(group, options(task, { steps: false }));
    expect(summary.group).toBeNull();
    expect(summary.group_error).toMatch(new RegExp(`^${path.join(group, "group.json")} is not a valid research group record \\(mlagentbench-group/1\\): id: .*; created_at: `));
    expect(summary.runs.map((r) => [r.run, r.final_score])).toEqual([["toy-seed1", 1.2]]);
    expect(renderEvalMarkdown(summary)).toContain(`> warning: ${summary.group_error}`);
  });
});

describe("a real task", () => {
  it("finds no improvement for titanic's untouched starter code", async () => {
    const task = (await getTask("titanic"));
    expect(task.baseline).not.toBeNull();
    const group = tempDir("mlab-eval-titanic-");
    const runDir = path.join(group, "titanic-seed1");
    await task.prepare(path.join(runDir, "workspace"), CTX);
    const ev = await evaluateRun(runDir, { ctx: CTX, makeRunner: hostRunnerHandle, steps: false });
    expect(ev.final_error).toBeNull();
    expect(ev.final_score).toBeCloseTo(task.baseline!.score, 3);
    expect(Math.abs(ev.improvement!)).toBeLessThan(0.005);
    expect(ev.success["5"]).toBe(false);
    expect(ev.status).toBe("error");
  }, 120_000);
});
