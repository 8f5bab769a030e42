import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mlebenchAsync } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { getSandboxBackend } from "../../src/sandbox/registry.js";
import { mlebenchAsUser, TEST_USER, userUnavailable } from "../helpers/user.js";

// `tasks run` and `tasks eval` as users run them: no --sandbox flag, so bubblewrap, and as root
// in CI (the evaluator then runs as a leased uid that must enter folders the harness made).
const bwrapMissing = await getSandboxBackend("bwrap").unavailable();

const STARTER = fs.readFileSync(new URL("../../src/mlagentbench/tasks/vectorization/files/train.py", import.meta.url), "utf8");
// The starter with forward() vectorised: one matrix product per kernel offset instead of a Python loop per output value.
const LOOPS = STARTER.slice(STARTER.indexOf("        result = np.zeros((count, out_height, out_width, filters))"), STARTER.indexOf("        if self.activation"));
const VECTORISED = STARTER.replace(
  LOOPS,
  [
    "        result = np.zeros((count, out_height, out_width, filters))",
    "        step = self.stride",
    "        for i in range(size):",
    "            for j in range(size):",
    "                patch = padded[:, i:i + step * out_height:step, j:j + step * out_width:step, :]",
    "                result += patch @ self.kernel_matrices[i, j]",
    "        result += self.biases",
    "",
    "",
  ].join("\n"),
);

function answer(action: string, input: unknown): string {
  return `Reflection: r\nResearch Plan and Status: p\nFact Check: f\nThought: t\nAction: ${action}\nAction Input: ${JSON.stringify(input)}\n`;
}

interface TaskSummary {
  task: string;
  runs: number;
  errors: number;
  unscored: number;
  baseline_source: string | null;
  success: Record<string, { mean: number }>;
}

async function runAndEval(args: string[], env: Record<string, string>, dataDir: string): Promise<{ summary: TaskSummary; evalJson: Record<string, unknown> }> {
  const runsDir = tempDir("mlab-bwrap-runs-");
  const run = await mlebenchAsync(["tasks", "run", "-t", "vectorization", "--runs-dir", runsDir, "--data-dir", dataDir, "--json", ...args], env);
  expect(run.status, run.stderr).toBe(0);
  const { group_dir: groupDir } = JSON.parse(run.stdout) as { group_dir: string };
  const ev = await mlebenchAsync(["tasks", "eval", groupDir, "--no-steps", "--data-dir", dataDir, "--json"], {});
  expect(ev.status, ev.stderr).toBe(0);
  const summary = (JSON.parse(ev.stdout) as { tasks: TaskSummary[] }).tasks[0]!;
  const evalJson = JSON.parse(fs.readFileSync(path.join(groupDir, "vectorization-seed0", "eval.json"), "utf8")) as Record<string, unknown>;
  return { summary, evalJson };
}

let llm: FakeLLM;
beforeAll(async () => {
  llm = await startFakeLLM();
});
afterAll(() => llm.close());

describe.skipIf(bwrapMissing !== null)("mlebench tasks run + tasks eval under the default sandbox", () => {
  // Both verdicts rest on timings: the starter's "improvement" is its own time measured twice, which
  // a machine busy with other tests can move by more than 10%. A retry measures again.
  it("scores a research agent that vectorises the convolution as a success at 10%, and the starter as scored but not", { retry: 2, timeout: 600_000 }, async () => {
    expect(VECTORISED).not.toBe(STARTER);
    const dataDir = tempDir("mlab-bwrap-data-");
    llm.reset();
    llm.script(
      openaiText(answer("Write File", { file_name: "train.py", content: VECTORISED })),
      openaiText(answer("Execute Script", { script_name: "train.py" })),
      openaiText(answer("Final Answer", { final_answer: "forward() is vectorised" })),
    );
    const agent = await runAndEval(["--agent", "mlab", "--max-steps", "5", "--time-limit", "10m"], { MLEBENCH_LLM_MODEL: `compat/fake@${llm.openaiBaseUrl}` }, dataDir);
    expect(agent.evalJson).toMatchObject({ status: "finished", final_error: null, baseline_error: null, baseline_source: "measured" });
    expect(agent.evalJson.improvement as number).toBeGreaterThan(0.1);
    expect(agent.summary).toMatchObject({ task: "vectorization", runs: 1, errors: 0, unscored: 0 });
    expect(agent.summary.success["10"]!.mean).toBe(1);

    const starter = await runAndEval(["--agent", "baseline"], {}, dataDir);
    expect(starter.evalJson).toMatchObject({ status: "finished", final_error: null, baseline_error: null });
    expect(typeof starter.evalJson.final_score).toBe("number");
    expect(starter.evalJson.improvement as number).toBeLessThan(0.1);
    expect(starter.summary).toMatchObject({ runs: 1, errors: 0, unscored: 0 });
    expect(starter.summary.success["10"]!.mean).toBe(0);
  });
});

// The same commands with the harness run by an unprivileged user: bwrap then makes a user namespace per command.
const USER = TEST_USER.uid;
const USER_WHY = bwrapMissing ?? userUnavailable();

describe.skipIf(USER_WHY !== null)(`mlebench tasks run + tasks eval as an unprivileged user, ${TEST_USER.name}${USER_WHY ? `: skipped, ${USER_WHY}` : ""}`, () => {
  it("runs the starter and scores it", () => {
    const home = tempDir("mlab-user-home-");
    const runsDir = tempDir("mlab-user-runs-");
    const dataDir = tempDir("mlab-user-data-");
    for (const d of [home, runsDir, dataDir]) fs.chownSync(d, USER, TEST_USER.gid);
    const cli = (args: string[]) => mlebenchAsUser(args, home);
    const run = cli(["tasks", "run", "-t", "vectorization", "--agent", "baseline", "--runs-dir", runsDir, "--data-dir", dataDir, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const { group_dir: groupDir } = JSON.parse(run.stdout) as { group_dir: string };
    const ev = cli(["tasks", "eval", groupDir, "--no-steps", "--data-dir", dataDir, "--json"]);
    expect(ev.status, ev.stderr).toBe(0);
    expect((JSON.parse(ev.stdout) as { tasks: TaskSummary[] }).tasks[0]).toMatchObject({ runs: 1, errors: 0, unscored: 0 });
    const evalJson = JSON.parse(fs.readFileSync(path.join(groupDir, "vectorization-seed0", "eval.json"), "utf8")) as Record<string, unknown>;
    expect(evalJson).toMatchObject({ final_error: null, baseline_error: null, baseline_source: "measured" });
    expect(typeof evalJson.final_score).toBe("number");
  }, 300_000);
});
