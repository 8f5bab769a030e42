import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mlabAgent, MLAB_FILES } from "../../src/agents/mlab/index.js";
import { mlabOptions } from "../../src/agents/mlab/options.js";
import type { AgentContext } from "../../src/agents/types.js";
import { getCompetition } from "../../src/competitions/registry.js";
import { UserError } from "../../src/core/errors.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { localTestSandbox } from "../helpers/local-sandbox.js";

let llm: FakeLLM;
beforeAll(async () => {
  llm = await startFakeLLM();
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

function answer(action: string, input: unknown): string {
  return `Reflection: ok\nResearch Plan and Status: plan\nFact Check: none\nThought: go\nAction: ${action}\nAction Input: ${JSON.stringify(input)}\n`;
}

const SOLVE = [
  "import csv",
  "rows = list(csv.DictReader(open('data/test.csv')))",
  "with open('submission/submission.csv', 'w') as f:",
  "    f.write('id,y\\n' + ''.join(f\"{r['id']},{float(r['x']) * 2}\\n\" for r in rows))",
  "print('wrote', len(rows), 'rows')",
].join("\n");

describe("mlab as an MLE-bench agent (local sandbox, fake LLM)", () => {
  it("sees data/ and submission/ in its workspace, cannot write data/, and leaves a submission", async () => {
    const root = tempDir("mlab-agent-");
    const data = path.join(root, "data");
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, "description.md"), "Predict y = 2x.\n");
    fs.writeFileSync(path.join(data, "test.csv"), "id,x\n1,1.5\n2,3\n");
    const dirs = Object.fromEntries(["submission", "code", "logs", "workspace"].map((d) => [d, path.join(root, d)])) as Record<
      "submission" | "code" | "logs" | "workspace",
      string
    >;
    for (const d of Object.values(dirs)) fs.mkdirSync(d);
    const sandbox = await localTestSandbox(`mlab-agent-${path.basename(root)}`, data, dirs);
    sandboxes.push(sandbox);
    const ctx: AgentContext = {
      sandbox,
      competition: getCompetition("titanic"),
      instructions: "Solve the task and write a CSV.",
      seed: 0,
      deadline: Date.now() + 600_000,
      records: dirs.logs,
      agentLog: path.join(dirs.logs, "agent.log"),
      hostPaths: { data, ...dirs },
      log: () => {},
    };
    llm.script(
      openaiText(answer("List Files", { dir_path: "data" })),
      openaiText(answer("Write File", { file_name: "data/test.csv", content: "id,x\n" })),
      openaiText(answer("Write File", { file_name: "solve.py", content: SOLVE })),
      openaiText(answer("Execute Script", { script_name: "solve.py" })),
      openaiText(answer("Final Answer", { final_answer: "submitted" })),
    );
    const agent = mlabAgent(
      mlabOptions({ model: `compat/fake@${llm.openaiBaseUrl}` }, { PATH: process.env.PATH }),
    );
    const outcome = await agent.run(ctx);
    expect(outcome).toEqual({ reason: "finished", exitCode: 0, signal: null });
    expect(fs.readFileSync(path.join(dirs.submission, "submission.csv"), "utf8")).toBe("id,y\n1,3.0\n2,6.0\n");
    expect(fs.readFileSync(path.join(data, "test.csv"), "utf8")).toBe("id,x\n1,1.5\n2,3\n");
    const trace = JSON.parse(fs.readFileSync(path.join(dirs.logs, MLAB_FILES.trace, "trace.json"), "utf8"));
    const obs = trace.steps.map((s: { observation: string }) => s.observation);
    expect(obs[0]).toBe("description.md\ntest.csv\n");
    expect(obs[1]).toBe("EnvError: cannot write file data/test.csv because it is a read-only file.");
    expect(obs[3]).toBe("The script has been executed. Here is the output:\nwrote 2 rows\n");
    expect(llm.requests[0]!.body.messages[0].content).toContain("data/ is the competition's read-only data");
    const usage = JSON.parse(fs.readFileSync(path.join(dirs.logs, MLAB_FILES.usage), "utf8"));
    expect(usage).toMatchObject({ stop: "final_answer", steps: 5, usage: { calls: 5 } });
  });

  it("needs a model and a whole positive step count", () => {
    expect(() => mlabOptions({}, {})).toThrow(UserError);
    expect(() => mlabOptions({}, {})).toThrow("--agent mlab needs a model");
    expect(() => mlabOptions({ model: `compat/m@${llm.openaiBaseUrl}`, steps: 0 }, {})).toThrow("--mlab-steps must be a whole number > 0, got 0");
  });
});
