import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { runResearchGroup } from "../../src/mlagentbench/group.js";
import { runResearch } from "../../src/mlagentbench/run.js";
import { getTask } from "../../src/mlagentbench/tasks/registry.js";
import type { ResearchTask } from "../../src/mlagentbench/tasks/types.js";
import { bwrapBackend } from "../../src/sandbox/bwrap.js";
import { localBackend } from "../../src/sandbox/local.js";
import type { Limits } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";

let llm: FakeLLM;
beforeAll(async () => {
  llm = await startFakeLLM();
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const LIMITS: Limits = { wallMs: 600_000, memoryBytes: null, pids: null, cpus: null, diskBytes: null, tmpBytes: 1 << 28, outputBytes: 10 << 20 };
const bwrapProblem = await bwrapBackend.unavailable();

function answer(action: string, input: unknown): string {
  return `Reflection: r\nResearch Plan and Status: p\nFact Check: f\nThought: t\nAction: ${action}\nAction Input: ${JSON.stringify(input)}\n`;
}

function readJson(file: string): any {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

describe("research runs", () => {
  it("runs the baseline agent on vectorization: one Execute Script, a Final Answer, a trace and run.json", async () => {
    const runsDir = tempDir("mlab-runs-");
    const { groupDir, records } = await runResearchGroup({
      tasks: [(await getTask("vectorization"))],
      seeds: 1,
      runsDir,
      dataDir: tempDir("mlab-data-"),
      backend: localBackend,
      limits: LIMITS,
      agent: "baseline",
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ schema: "mlagentbench-run/1", task: "vectorization", seed: 0, agent: "baseline", status: "finished", stop: "final_answer", steps: 2, error: null });
    expect(path.basename(groupDir)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_mlagentbench-group_baseline$/);
    const group = readJson(path.join(groupDir, "group.json"));
    expect(group).toMatchObject({ schema: "mlagentbench-group/1", id: path.basename(groupDir), agent: "baseline", model: null, tasks: ["vectorization"], seeds: [0] });
    expect(Object.keys(group)).toEqual(["schema", "id", "agent", "model", "tasks", "seeds", "created_at"]);
    const runDir = path.join(groupDir, "vectorization-seed0");
    const onDisk = readJson(path.join(runDir, "run.json"));
    expect(onDisk).toEqual(records[0]);
    // snake_case like MLE-bench's run.json, schema first.
    expect(Object.keys(onDisk)).toEqual(["schema", "task", "seed", "agent", "model", "status", "stop", "final_answer", "started_at", "ended_at", "wall_seconds", "steps", "usage", "error"]);
    expect(Object.keys(onDisk.usage)).toEqual(["calls", "input_tokens", "output_tokens", "cost_usd"]);
    expect(onDisk).toMatchObject({ model: null, final_answer: "The starter code, run once unchanged.", usage: { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 } });
    expect(typeof onDisk.wall_seconds).toBe("number");
    expect(Date.parse(onDisk.ended_at)).toBeGreaterThanOrEqual(Date.parse(onDisk.started_at));
    const trace = readJson(path.join(runDir, "trace", "trace.json"));
    expect(trace.steps.map((s: { action: { name: string } }) => s.action.name)).toEqual(["Execute Script", "Final Answer"]);
    expect(trace.steps[0].observation).toMatch(/^The script has been executed\. Here is the output:\n/);
    expect(fs.readFileSync(path.join(runDir, "trace", "snapshots", "0", "train.py"), "utf8")).toContain("class Conv2DLayer");
    expect(fs.existsSync(path.join(runDir, "workspace", "submission.csv"))).toBe(true);
    expect(fs.existsSync(path.join(runDir, "sandbox"))).toBe(false);
  }, 120_000);

  it("runs the research agent against a fake model and records its usage", async () => {
    llm.script(
      openaiText(answer("Inspect Script Lines", { script_name: "train.py", start_line_number: 1, end_line_number: 3 }), { input: 100, output: 20 }),
      openaiText(answer("Final Answer", { final_answer: "left as it was" }), { input: 150, output: 10 }),
    );
    const runDir = path.join(tempDir("mlab-run-"), "vectorization-seed3");
    const record = await runResearch({
      task: (await getTask("vectorization")),
      seed: 3,
      runDir,
      ctx: { dataDir: tempDir("mlab-data-") },
      backend: localBackend,
      limits: LIMITS,
      agent: "mlab",
      mlab: { model: `compat/fake@${llm.openaiBaseUrl}`, client: { env: {}, retry: { retries: 0 } } },
    });
    expect(record).toMatchObject({
      agent: "mlab",
      model: `compat/fake@${llm.openaiBaseUrl}`,
      seed: 3,
      status: "finished",
      final_answer: "left as it was",
      steps: 2,
      usage: { calls: 2, input_tokens: 250, output_tokens: 30 },
    });
    expect(fs.readFileSync(path.join(runDir, "logs", "agent", "main_log"), "utf8")).toContain("Research Problem: train.py implements a 2-D convolution");
    await expect(
      runResearch({ task: (await getTask("vectorization")), seed: 3, runDir, ctx: { dataDir: tempDir() }, backend: localBackend, limits: LIMITS, agent: "baseline" }),
    ).rejects.toThrow(/already holds a run/);
  }, 120_000);

  it("records a task that cannot be prepared as an error run, with the reason", async () => {
    const task: ResearchTask = {
      ...(await getTask("vectorization")),
      name: "needs-data",
      needsDownload: true,
      async prepare() {
        throw new UserError("needs-data is not prepared: run `mlebench tasks prepare needs-data` first");
      },
    };
    const runDir = path.join(tempDir("mlab-run-"), "needs-data-seed0");
    const record = await runResearch({ task, seed: 0, runDir, ctx: { dataDir: tempDir() }, backend: localBackend, limits: LIMITS, agent: "baseline" });
    expect(record).toMatchObject({ status: "error", steps: 0, error: "needs-data is not prepared: run `mlebench tasks prepare needs-data` first" });
  });

  it.skipIf(bwrapProblem !== null)("in bwrap, a script cannot change read-only files nor read the packaged answers", async () => {
    // bwrap mounts the compiled in-sandbox init, so this test runs the built modules (npm test builds first).
    const built = (file: string) => new URL(`../../dist/${file}`, import.meta.url).href;
    const { runResearch: runBuilt } = (await import(built("mlagentbench/run.js"))) as typeof import("../../src/mlagentbench/run.js");
    const { getTask: getBuilt } = (await import(built("mlagentbench/tasks/registry.js"))) as typeof import("../../src/mlagentbench/tasks/registry.js");
    const { bwrapBackend: bwrapBuilt } = (await import(built("sandbox/bwrap.js"))) as typeof import("../../src/sandbox/bwrap.js");
    const task = await getBuilt("titanic");
    const hidden = task.hiddenSources();
    expect(hidden.length).toBeGreaterThan(0);
    const probe = [
      "import os, sys",
      "try:",
      "    open('train.csv', 'a').write('x')",
      "    print('wrote train.csv')",
      "except OSError as e:",
      "    print('train.csv refused:', e.errno)",
      `print('hidden bytes:', sum(os.path.getsize(p) for p in ${JSON.stringify(hidden)}))`,
    ].join("\n");
    llm.script(
      openaiText(answer("Write File", { file_name: "probe.py", content: probe })),
      openaiText(answer("Execute Script", { script_name: "probe.py" })),
      openaiText(answer("Final Answer", { final_answer: "probed" })),
    );
    const runDir = path.join(tempDir("mlab-run-"), "titanic-seed0");
    const record = await runBuilt({
      task,
      seed: 0,
      runDir,
      ctx: { dataDir: tempDir() },
      backend: bwrapBuilt,
      limits: LIMITS,
      agent: "mlab",
      mlab: { model: `compat/fake@${llm.openaiBaseUrl}`, client: { env: {}, retry: { retries: 0 } } },
    });
    expect(record.status).toBe("finished");
    const trace = readJson(path.join(runDir, "trace", "trace.json"));
    expect(trace.steps[1].observation).toBe("The script has been executed. Here is the output:\ntrain.csv refused: 30\nhidden bytes: 0\n");
  }, 120_000);
});
