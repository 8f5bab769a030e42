import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aideAgent, AIDE_FILES, type AideOptions } from "../../src/agents/aide/index.js";
import { JournalFileSchema, type JournalNode } from "../../src/agents/aide/journal.js";
import type { AgentContext } from "../../src/agents/types.js";
import { getCompetition } from "../../src/competitions/registry.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";
import { anthropicText, anthropicToolUse, openaiRefusal, openaiText, openaiToolCall, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { localTestSandbox } from "../helpers/local-sandbox.js";

const GOOD = `import pandas as pd
test = pd.read_csv("./input/test.csv")
pd.DataFrame({"id": test["id"], "y": 0}).to_csv("./submission/submission.csv", index=False)
print("Validation RMSE: 2")`;
const BUGGY = `import pandas as pd
train = pd.read_csv("./input/train.csv")
print(train["no_such_column"].mean())`;
const FIXED = `import pandas as pd
train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
pd.DataFrame({"id": test["id"], "y": train["y"].mean()}).to_csv("./submission/submission.csv", index=False)
print("Validation RMSE: 1.5")`;
const WORSE = `import pandas as pd
test = pd.read_csv("./input/test.csv")
pd.DataFrame({"id": test["id"], "y": 100}).to_csv("./submission/submission.csv", index=False)
print("Validation RMSE: 3")`;

const answer = (plan: string, code: string) => `${plan}\n\n\`\`\`python\n${code}\n\`\`\``;
const review = (is_bug: boolean, metric: number | null, lower_is_better: boolean, summary = "ok") => ({ is_bug, summary, metric, lower_is_better });

let llm: FakeLLM;
beforeAll(async () => {
  llm = await startFakeLLM();
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

/** A tiny competition folder, a local sandbox over fresh run folders, and an agent context for it. */
async function setup(
  reuse?: string,
): Promise<{ ctx: AgentContext; sandbox: Sandbox; logs: string; submission: string; workspace: string; root: string }> {
  const root = reuse ?? tempDir("mlebench-aide-");
  const data = path.join(root, "data");
  fs.mkdirSync(data, { recursive: true });
  fs.writeFileSync(path.join(data, "train.csv"), "id,x,y\n1,0.5,1\n2,1.5,2\n3,2.5,3\n");
  fs.writeFileSync(path.join(data, "test.csv"), "id,x\n4,3.5\n5,4.5\n");
  fs.writeFileSync(path.join(data, "sample_submission.csv"), "id,y\n4,0\n5,0\n");
  fs.writeFileSync(path.join(data, "description.md"), "Predict y from x. Scored by RMSE.\n");
  const dirs = Object.fromEntries(["submission", "code", "logs", "workspace"].map((d) => [d, path.join(root, d)])) as Record<
    "submission" | "code" | "logs" | "workspace",
    string
  >;
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const sandbox = await localTestSandbox(`aide-test-${path.basename(root)}`, data, dirs, { PYTHONUNBUFFERED: "1" });
  const runLog: string[] = [];
  const ctx: AgentContext = {
    sandbox,
    competition: getCompetition("titanic"),
    instructions: "Solve the task below and submit predictions as a CSV.",
    seed: 7,
    deadline: Number.POSITIVE_INFINITY,
    records: dirs.logs,
    agentLog: path.join(dirs.logs, "agent.log"),
    hostPaths: { data, ...dirs },
    log: (m) => runLog.push(m),
  };
  return { ctx, sandbox, logs: dirs.logs, submission: dirs.submission, workspace: dirs.workspace, root };
}

const FAST_CLIENT: AideOptions["client"] = { env: {}, retry: { backoffMs: 1, maxDelayMs: 5, jitter: false }, timeoutMs: 2000 };

describe("aide agent end to end (local sandbox, fake OpenAI-compatible server)", () => {
  it("drafts, debugs and improves; keeps the best node's submission; counts retries and usage", async () => {
    const { ctx, sandbox, logs, submission, workspace } = await setup();
    llm.script(
      // step 0, draft: a rate limit, a refusal, malformed code, then a good draft
      { status: 429, headers: { "retry-after": "0" }, body: { error: { message: "slow down" } } },
      openaiRefusal("I can't help with that."),
      openaiText("Fit something.\n\n```python\ndef broken(:\n    pass\n```"),
      openaiText(answer("Predict zero everywhere as a first baseline.", GOOD)),
      // its review: text where the tool was forced, then the call, with an integer metric
      openaiText("The run looks fine, RMSE 2."),
      openaiToolCall("submit_review", review(false, 2, true, "Constant baseline, RMSE 2.")),
      // step 1, draft: a server error, then a buggy draft, reviewed as a bug
      { status: 500, body: { error: { message: "internal" } } },
      openaiText(answer("Use the column that does not exist.", BUGGY)),
      openaiToolCall("submit_review", review(true, null, false, "KeyError: read the right column.")),
      // step 2: debug of node 1; the review flips the direction, which stays fixed
      openaiText(answer("Use the y column's mean.", FIXED)),
      openaiToolCall("submit_review", review(false, 1.5, false, "Mean baseline, RMSE 1.5.")),
      // step 3: improve node 2; the first reply is past the timeout
      { ...openaiText(answer("too late", WORSE)), delayMs: 4000 },
      openaiText(answer("Predict a large constant.", WORSE)),
      openaiToolCall("submit_review", review(false, 3, true, "Worse, RMSE 3.")),
    );
    const agent = aideAgent({ model: `compat/fake-model@${llm.openaiBaseUrl}`, steps: 4, numDrafts: 2, debugProb: 1, client: FAST_CLIENT });
    const outcome = await agent.run(ctx);
    await sandbox.close();
    expect(outcome).toEqual({ reason: "finished", exitCode: 0, signal: null });
    expect(llm.pending()).toBe(0);

    const journal = JournalFileSchema.parse(JSON.parse(fs.readFileSync(path.join(logs, AIDE_FILES.journal), "utf8")));
    expect(journal.nodes.map((n) => [n.id, n.parentId, n.stage, n.isBug, n.metric])).toEqual([
      [0, null, "draft", false, 2],
      [1, null, "draft", true, null],
      [2, 1, "debug", false, 1.5],
      [3, 2, "improve", false, 3],
    ]);
    expect(journal.lowerIsBetter).toBe(true);
    expect(journal.bestId).toBe(2);
    expect(journal.nodes[0].plan).toBe("Predict zero everywhere as a first baseline.");
    expect(journal.nodes[1].exitCode).toBe(1);
    expect(journal.nodes[1].termOut).toContain("KeyError: 'no_such_column'");
    expect(journal.nodes[1].analysis).toBe(
      "KeyError: read the right column. The run exited with status 1. The run did not write submission/submission.csv. No validation metric was reported.",
    );
    expect(journal.nodes.map((n) => n.hasSubmission)).toEqual([true, false, true, true]);

    expect(fs.readFileSync(path.join(submission, "submission.csv"), "utf8")).toBe("id,y\n4,2.0\n5,2.0\n");
    expect(fs.readFileSync(path.join(logs, AIDE_FILES.best), "utf8")).toBe(FIXED + "\n");
    expect(fs.readFileSync(path.join(workspace, "node_3", "submission", "submission.csv"), "utf8")).toBe("id,y\n4,100\n5,100\n");
    const html = fs.readFileSync(path.join(logs, AIDE_FILES.tree), "utf8");
    expect(html).toContain('class="node best" data-id="2"');

    // 14 replies: 11 calls completed, 3 of them after a retry (429, 500, timeout)
    expect(journal.usage).toMatchObject({ calls: 11, retries: 3, failures: 0, inputTokens: 11 * 11, outputTokens: 11 * 7 });
    const llmLog = fs.readFileSync(path.join(logs, AIDE_FILES.llmLog), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(llmLog.map((e) => e.attempts)).toEqual([2, 1, 1, 1, 1, 2, 1, 1, 1, 2, 1]);

    // The prompts carry the data overview and the budget; the review is a forced tool call.
    const system = (i: number) => llm.requests[i].body.messages[0].content as string;
    expect(system(0)).toContain("# Data overview");
    expect(system(0)).toMatch(/train\.csv \(4 lines\)/);
    expect(system(0)).toMatch(/x \(float64\) has 3 unique values: \[0\.5, 1\.5, 2\.5\]/);
    expect(system(0)).toContain("Predict y from x. Scored by RMSE.");
    expect(system(0)).toContain("one of 4 remaining steps (of 4)");
    const reviewReq = llm.requests[4].body;
    expect(reviewReq.tool_choice).toEqual({ type: "function", function: { name: "submit_review" } });
    expect(system(4)).toContain("Validation RMSE: 2");
    const debugReq = llm.requests.findIndex((r) => String(r.body.messages[0].content).includes("# Failed program"));
    expect(system(debugReq)).toContain("no_such_column");
    expect(system(debugReq)).toContain("one of 2 remaining steps (of 4)");
    expect(system(llm.requests.length - 2)).toContain("# Solution to improve");
  }, 60_000);

  it("works against the Anthropic API too, and a program past its time limit is a bug", async () => {
    const { ctx, sandbox, logs, submission } = await setup();
    llm.script(
      anthropicText(answer("Sleep too long.", "import time\ntime.sleep(30)")),
      anthropicToolUse("submit_review", review(false, 1, true)),
      anthropicText(answer("Constant baseline.", GOOD)),
      anthropicToolUse("submit_review", review(false, 2, true)),
    );
    const agent = aideAgent({
      model: "anthropic/claude-test",
      steps: 2,
      numDrafts: 2,
      execTimeoutMs: 1500,
      client: { ...FAST_CLIENT, env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: llm.url } },
    });
    const outcome = await agent.run(ctx);
    await sandbox.close();
    expect(outcome.reason).toBe("finished");
    expect(llm.requests[0].path).toBe("/v1/messages");
    expect(llm.requests[0].headers["x-api-key"]).toBe("test-key");
    const journal = JournalFileSchema.parse(JSON.parse(fs.readFileSync(path.join(logs, AIDE_FILES.journal), "utf8")));
    expect(journal.nodes.map((n) => [n.isBug, n.timedOut, n.metric])).toEqual([
      [true, true, null],
      [false, false, 2],
    ]);
    expect(journal.nodes[0].analysis).toContain("time limit");
    expect(journal.bestId).toBe(1);
    expect(journal.usage).toMatchObject({ calls: 4, retries: 0, inputTokens: 4 * 17, outputTokens: 4 * 5 });
    expect(fs.readFileSync(path.join(submission, "submission.csv"), "utf8")).toBe("id,y\n4,0\n5,0\n");
  }, 60_000);

  it("ends with its best so far when the model stays unreachable", async () => {
    const { ctx, sandbox, logs, submission } = await setup();
    llm.script(
      openaiText(answer("Constant baseline.", GOOD)),
      openaiToolCall("submit_review", review(false, 2, true)),
      ...Array.from({ length: 3 }, () => ({ status: 503, body: { error: { message: "down" } } })),
    );
    const agent = aideAgent({
      model: `compat/fake-model@${llm.openaiBaseUrl}`,
      steps: 5,
      client: { ...FAST_CLIENT, retry: { retries: 2, backoffMs: 1, maxDelayMs: 5, jitter: false } },
    });
    const outcome = await agent.run(ctx);
    await sandbox.close();
    expect(outcome).toEqual({ reason: "finished", exitCode: 0, signal: null });
    const journal = JournalFileSchema.parse(JSON.parse(fs.readFileSync(path.join(logs, AIDE_FILES.journal), "utf8")));
    expect(journal.nodes).toHaveLength(1);
    // the failed call made three attempts: two retries
    expect(journal.usage).toMatchObject({ calls: 3, failures: 1, retries: 2 });
    expect(fs.readFileSync(path.join(submission, "submission.csv"), "utf8")).toBe("id,y\n4,0\n5,0\n");
    expect(fs.readFileSync(ctx.agentLog, "utf8")).toContain("stopping: the model could not be reached");
  }, 60_000);

  it("stops when the run's LLM budget is spent, keeping its best node", async () => {
    const { ctx, sandbox, logs, submission } = await setup();
    llm.script(openaiText(answer("Constant baseline.", GOOD)), openaiToolCall("submit_review", review(false, 2, true)));
    const agent = aideAgent({ model: `compat/fake-model@${llm.openaiBaseUrl}`, steps: 5, client: { ...FAST_CLIENT, budget: { maxCalls: 2 } } });
    const outcome = await agent.run(ctx);
    await sandbox.close();
    expect(outcome).toEqual({ reason: "finished", exitCode: 0, signal: null });
    expect(llm.requests).toHaveLength(2);
    const journal = JournalFileSchema.parse(JSON.parse(fs.readFileSync(path.join(logs, AIDE_FILES.journal), "utf8")));
    expect(journal.nodes).toHaveLength(1);
    expect(fs.readFileSync(path.join(submission, "submission.csv"), "utf8")).toBe("id,y\n4,0\n5,0\n");
    expect(fs.readFileSync(ctx.agentLog, "utf8")).toMatch(/stopping: the run's LLM budget is spent: .*2 of 2 calls/);
  }, 60_000);

  it("starts no step when the run's time is nearly up, and still leaves an (empty) journal", async () => {
    const { ctx, sandbox, logs } = await setup();
    const agent = aideAgent({ model: `compat/fake-model@${llm.openaiBaseUrl}`, client: FAST_CLIENT });
    const outcome = await agent.run({ ...ctx, deadline: Date.now() + 3000 });
    await sandbox.close();
    expect(outcome).toEqual({ reason: "crashed", exitCode: 1, signal: null });
    expect(llm.requests).toHaveLength(0);
    const journal = JournalFileSchema.parse(JSON.parse(fs.readFileSync(path.join(logs, AIDE_FILES.journal), "utf8")));
    expect(journal).toMatchObject({ nodes: [], bestId: null, usage: { calls: 0 } });
    expect(fs.existsSync(path.join(logs, AIDE_FILES.tree))).toBe(true);
    expect(fs.existsSync(path.join(logs, AIDE_FILES.best))).toBe(false);
  }, 60_000);

  it("a recorded run replays with no server: same tree, same submission", async () => {
    const first = await setup();
    const recordings = tempDir("mlebench-aide-rec-");
    llm.script(
      openaiText(answer("Use the column that does not exist.", BUGGY)),
      openaiToolCall("submit_review", review(true, null, false)),
      openaiText(answer("Constant baseline.", GOOD)),
      openaiToolCall("submit_review", review(false, 2, true)),
    );
    const model = `compat/fake-model@${llm.openaiBaseUrl}`;
    await aideAgent({ model, steps: 2, numDrafts: 2, llmRecordDir: recordings, client: FAST_CLIENT }).run({ ...first.ctx, deadline: Date.now() + 600_000 });
    await first.sandbox.close();
    const recorded = JSON.parse(fs.readFileSync(path.join(first.logs, AIDE_FILES.journal), "utf8"));
    expect(llm.requests).toHaveLength(4);
    expect(llm.requests[0].body.messages[0].content).not.toContain("wall-clock");

    fs.rmSync(path.join(first.submission, "submission.csv"));
    const again = await setup(first.root);
    const outcome = await aideAgent({ model, steps: 2, numDrafts: 2, llmReplayDir: recordings, client: FAST_CLIENT }).run(again.ctx);
    await again.sandbox.close();
    expect(outcome.reason).toBe("finished");
    expect(llm.requests).toHaveLength(4);
    const replayed = JSON.parse(fs.readFileSync(path.join(first.logs, AIDE_FILES.journal), "utf8"));
    const shape = (j: { nodes: JournalNode[] }) => j.nodes.map(({ createdAt: _c, execTimeS: _e, ...rest }) => rest);
    expect(shape(replayed)).toEqual(shape(recorded));
    expect(replayed.bestId).toBe(1);
    expect(fs.readFileSync(path.join(first.submission, "submission.csv"), "utf8")).toBe("id,y\n4,0\n5,0\n");
  }, 60_000);

  it("after three answers without usable code, runs the last one as it is, so the failure gets debugged", async () => {
    const { ctx, sandbox, logs } = await setup();
    llm.script(
      openaiText("I would fit a model."),
      openaiText("Plan only, still no code."),
      openaiText("Here it is:\n```python\nfor x in\n```"),
      openaiToolCall("submit_review", review(true, null, false, "The program does not parse.")),
    );
    const outcome = await aideAgent({ model: `compat/fake-model@${llm.openaiBaseUrl}`, steps: 1, client: FAST_CLIENT }).run(ctx);
    await sandbox.close();
    expect(outcome).toEqual({ reason: "crashed", exitCode: 1, signal: null });
    const journal = JournalFileSchema.parse(JSON.parse(fs.readFileSync(path.join(logs, AIDE_FILES.journal), "utf8")));
    expect(journal.nodes).toHaveLength(1);
    expect(journal.nodes[0]).toMatchObject({ plan: "", code: "Here it is:\n```python\nfor x in\n```", isBug: true, exitCode: 1 });
    expect(journal.nodes[0].termOut).toContain("SyntaxError");
    expect(fs.readFileSync(ctx.agentLog, "utf8")).toContain("answer 3 of 3 had no plan with parseable code");
  }, 60_000);
});
