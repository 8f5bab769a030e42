import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mlebench, mlebenchAsync } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, openaiToolCall, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { titanicDataDir } from "../helpers/runs.js";
import { competitionPaths } from "../../src/core/paths.js";
import { getSandboxBackend } from "../../src/sandbox/registry.js";

// bwrap is the default backend; it is tested where it works here.
const BACKENDS = ["local", ...((await getSandboxBackend("bwrap").unavailable()) === null ? ["bwrap"] : [])];


const COPY_SAMPLE = `import glob, shutil
shutil.copy(sorted(glob.glob("./input/*submission*.csv"))[0], "./submission/submission.csv")
print("Validation accuracy: 0.5")`;

let llm: FakeLLM;
let dataDir: string;
beforeAll(async () => {
  llm = await startFakeLLM();
  dataDir = await titanicDataDir();
});
afterAll(() => llm.close());

describe("mlebench run --agent aide", () => {
  it.each(BACKENDS)("runs the search in a %s sandbox and leaves the journal, tree and best solution in the run's logs", async (backend) => {
    llm.reset();
    llm.script(
      openaiText(`Copy the sample submission.\n\n\`\`\`python\n${COPY_SAMPLE}\n\`\`\``, { input: 1200, output: 80, cached: 200 }),
      openaiToolCall("submit_review", { is_bug: false, summary: "ok", metric: 0.5, lower_is_better: false }, "call_1", { input: 900, output: 30 }),
    );
    const runsDir = tempDir("mlebench-aide-runs-");
    const r = await mlebenchAsync(
      ["run", "--agent", "aide", "-c", "titanic", "--sandbox", backend, "--data-dir", dataDir, "--runs-dir", runsDir, "--json", "--aide-steps", "1", "--time-limit", "5m"],
      { MLEBENCH_LLM_MODEL: `compat/fake@${llm.openaiBaseUrl}` },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string; status: string }[] };
    expect(out.runs[0].status).toBe("completed");
    const runDir = path.join(out.dir, out.runs[0].run_id);
    for (const f of ["journal.json", "tree.html", "best_solution.py", "llm.jsonl"]) expect(fs.existsSync(path.join(runDir, "logs", f)), f).toBe(true);
    expect(fs.readFileSync(path.join(runDir, "logs", "best_solution.py"), "utf8")).toBe(COPY_SAMPLE + "\n");
    expect(fs.readFileSync(path.join(runDir, "submission", "submission.csv"), "utf8").split("\n")[0]).toBe("PassengerId,Survived");
    const description = fs.readFileSync(path.join(competitionPaths(dataDir, "titanic").public, "description.md"), "utf8");
    expect(llm.requests[0].body.messages[0].content).toContain(description.trim().split("\n")[0]);
    // The manifest sums the harness's call log: both calls, their tokens, and no price for an unknown model.
    const calls = fs.readFileSync(path.join(runDir, "logs", "llm.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { model: string });
    const manifest = JSON.parse(fs.readFileSync(path.join(runDir, "manifest.json"), "utf8")) as { models: unknown; software: { sandbox: { backend: string } } };
    expect(manifest.models).toEqual([
      { model: calls[0].model, calls: 2, failed_calls: 0, input_tokens: 2100, output_tokens: 110, cached_input_tokens: 200, cost_usd: null, unpriced_calls: 2 },
    ]);
    expect(manifest.software.sandbox.backend).toBe(backend);
  }, 120_000);

  it("needs a model, refuses aide flags for other agents and bad values", () => {
    const base = ["run", "-c", "titanic", "--sandbox", "local", "--data-dir", dataDir, "--runs-dir", tempDir()];
    const noModel = mlebench([...base, "--agent", "aide"], { MLEBENCH_LLM_MODEL: "" });
    expect(noModel.status).not.toBe(0);
    expect(noModel.stderr).toContain("--agent aide needs a model");
    const other = mlebench([...base, "--agent", "dummy", "--llm-model", "openai/gpt-4o"]);
    expect(other.stderr).toContain("--llm-model is only for --agent aide");
    const prob = mlebench([...base, "--agent", "aide", "--llm-model", "compat/x@http://127.0.0.1:9/v1", "--aide-debug-prob", "2"]);
    expect(prob.stderr).toContain("--aide-debug-prob must be between 0 and 1");
    const key = mlebench([...base, "--agent", "aide", "--llm-model", "anthropic/claude-x"], { ANTHROPIC_API_KEY: "" });
    expect(key.stderr).toContain("ANTHROPIC_API_KEY is not set");
    const compat = [...base, "--agent", "aide", "--llm-model", "compat/x@http://127.0.0.1:9/v1"];
    const cost = mlebench([...compat, "--llm-max-cost", "-1"]);
    expect(cost.status).toBe(2);
    expect(cost.stderr).toContain("--llm-max-cost must be a positive number of USD, got -1");
    const prices = path.join(tempDir(), "prices.json");
    fs.writeFileSync(prices, JSON.stringify({ "compat/x": { input: "cheap" } }));
    const badPrices = mlebench([...compat, "--llm-prices", prices]);
    expect(badPrices.status).toBe(2);
    expect(badPrices.stderr).toContain(prices);
    expect(mlebench([...base, "--agent", "dummy", "--llm-max-calls", "3"]).stderr).toContain("--llm-max-calls is only for --agent aide");
  }, 120_000);
});
