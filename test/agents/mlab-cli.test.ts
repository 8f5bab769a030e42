import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mlebench, mlebenchAsync } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { titanicDataDir } from "../helpers/runs.js";
import { getSandboxBackend } from "../../src/sandbox/registry.js";

const BACKENDS = ["local", ...((await getSandboxBackend("bwrap").unavailable()) === null ? ["bwrap"] : [])];


function answer(action: string, input: unknown): string {
  return `Reflection: r\nResearch Plan and Status: p\nFact Check: f\nThought: t\nAction: ${action}\nAction Input: ${JSON.stringify(input)}\n`;
}

const SOLVE = "import shutil\nshutil.copy('data/sample_submission.csv', 'submission/submission.csv')\nprint('copied')\n";

let llm: FakeLLM;
let dataDir: string;
beforeAll(async () => {
  llm = await startFakeLLM();
  dataDir = await titanicDataDir();
});
afterAll(() => llm.close());

describe("mlebench run --agent mlab", () => {
  it.each(BACKENDS)("works through data/ and submission/ in a %s sandbox and is graded", async (backend) => {
    llm.reset();
    llm.script(
      openaiText(answer("List Files", { dir_path: "data" })),
      openaiText(answer("Write File", { file_name: "solve.py", content: SOLVE })),
      openaiText(answer("Execute Script", { script_name: "solve.py" })),
      openaiText(answer("Final Answer", { final_answer: "submitted the sample" })),
    );
    const runsDir = tempDir("mlab-cli-runs-");
    const r = await mlebenchAsync(
      ["run", "--agent", "mlab", "-c", "titanic", "--sandbox", backend, "--data-dir", dataDir, "--runs-dir", runsDir, "--json", "--grade", "--mlab-steps", "6", "--time-limit", "5m"],
      { MLEBENCH_LLM_MODEL: `compat/fake@${llm.openaiBaseUrl}` },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string; status: string }[] };
    expect(out.runs[0]!.status).toBe("completed");
    const runDir = path.join(out.dir, out.runs[0]!.run_id);
    const trace = JSON.parse(fs.readFileSync(path.join(runDir, "logs", "mlab", "trace", "trace.json"), "utf8"));
    expect(trace.steps[0].observation).toContain("sample_submission.csv\n");
    expect(trace.steps[2].observation).toBe("The script has been executed. Here is the output:\ncopied\n");
    expect(fs.readFileSync(path.join(runDir, "submission", "submission.csv"), "utf8").split("\n")[0]).toBe("PassengerId,Survived");
    const report = JSON.parse(fs.readFileSync(path.join(runDir, "grading_report.json"), "utf8"));
    expect(report.valid_submission).toBe(true);
    expect(fs.existsSync(path.join(runDir, "logs", "mlab", "main_log"))).toBe(true);
  }, 120_000);

  it("refuses mlab flags for other agents", () => {
    const r = mlebench(["run", "--agent", "dummy", "-c", "titanic", "--mlab-retrieval", "--data-dir", dataDir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--mlab-retrieval is only for --agent mlab");
  });
});
