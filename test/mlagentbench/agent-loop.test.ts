import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runResearchAgent, type ResearchAgentOptions } from "../../src/mlagentbench/agent/loop.js";
import { createClient } from "../../src/llm/client.js";
import { Environment } from "../../src/mlagentbench/env/environment.js";
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

/** One well-formed answer of the research agent. */
function answer(action: string, input: unknown, thought = "next step"): string {
  const json = typeof input === "string" ? input : JSON.stringify(input);
  return `Reflection: looked at it\nResearch Plan and Status: **1. run the script**\nFact Check: nothing yet\nThought: ${thought}\nAction: ${action}\nAction Input: ${json}\nObservation: I imagine it worked`;
}

/** The user prompt of the n-th request the fake server saw. */
function prompt(n: number): string {
  return llm.requests[n]!.body.messages.at(-1).content as string;
}

async function setup(maxSteps = 20): Promise<{ env: Environment; ws: string; root: string; opts: ResearchAgentOptions }> {
  const root = tempDir("mlab-loop-");
  const ws = path.join(root, "workspace");
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, "train.py"), "print('accuracy 0.75')\n");
  fs.writeFileSync(path.join(ws, "data.csv"), "a\n1\n");
  const dirs = Object.fromEntries(["submission", "code", "logs"].map((d) => [d, path.join(root, d)])) as Record<string, string>;
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const sandbox = await localTestSandbox(`mlab-loop-${path.basename(root)}`, ws, { submission: dirs.submission!, code: dirs.code!, logs: dirs.logs!, workspace: ws });
  sandboxes.push(sandbox);
  const client = createClient(`compat/fake-model@${llm.openaiBaseUrl}`, { env: {}, retry: { retries: 0 }, timeoutMs: 5000 });
  const env = new Environment({
    workspace: ws,
    readOnly: ["data.csv"],
    sandbox,
    sandboxWorkspace: ws,
    python: "/usr/bin/python3",
    llm: client,
    researchProblem: "Improve the accuracy.",
    maxSteps,
    maxTimeMs: 600_000,
    execTimeoutMs: 60_000,
    outputCap: 10_000,
    traceDir: path.join(root, "trace"),
  });
  return { env, ws, root, opts: { llm: client, problem: "Improve the accuracy.", logDir: path.join(root, "agent") } };
}

function trace(root: string): { steps: { action: { name: string; args: unknown }; observation: string }[] } {
  return JSON.parse(fs.readFileSync(path.join(root, "trace", "trace.json"), "utf8"));
}

describe("research agent loop (fake OpenAI-compatible server)", () => {
  it("lists, runs the script and finishes; each prompt carries the previous observations", async () => {
    const { env, root, opts } = await setup();
    llm.script(
      openaiText(answer("List Files", { dir_path: "." })),
      openaiText(answer("Execute Script", { script_name: "train.py" })),
      openaiText(answer("Final Answer", { final_answer: "accuracy is 0.75" })),
    );
    const result = await runResearchAgent(env, opts);
    expect(result).toEqual({ stop: "final_answer", steps: 3, finalAnswer: "accuracy is 0.75", error: null });
    const steps = trace(root).steps;
    expect(steps.map((s) => s.action.name)).toEqual(["List Files", "Execute Script", "Final Answer"]);
    expect(steps[0]!.observation).toBe("backup/\ndata.csv\ntrain.py\n");
    expect(steps[1]!.observation).toBe("The script has been executed. Here is the output:\naccuracy 0.75\n");
    expect(llm.requests).toHaveLength(3);
    expect(prompt(0)).toContain("Research Problem: Improve the accuracy.");
    expect(prompt(0)).toContain("\nNow begin.\n\n");
    // The model's own "Observation:" was cut off; the real one follows, and the plan lost its ** marks.
    expect(prompt(1)).toContain("Research Plan and Status:  1. run the script\n\n\nFact Check:");
    expect(prompt(1)).toContain('Action Input:  {"dir_path":"."}\n\nObservation:\n```\nbackup/\ndata.csv\ntrain.py\n\n```');
    expect(prompt(1)).not.toContain("I imagine it worked");
    expect(prompt(2)).toContain("```\nThe script has been executed. Here is the output:\naccuracy 0.75\n\n```");
    const mainLog = fs.readFileSync(path.join(root, "agent", "main_log"), "utf8");
    expect(mainLog).toContain("Step 1:");
    expect(fs.existsSync(path.join(root, "agent", "agent_2_2.json"))).toBe(true);
  });

  it("asks again after an unreadable answer and shows an input parsing error until a step parses", async () => {
    const { env, root, opts } = await setup();
    llm.script(
      openaiText("I think we should run the script."),
      openaiText(answer("Execute Script", "script_name = train.py")),
      openaiText(answer("Execute Script", { script_name: "train.py" })),
      openaiText(answer("Final Answer", { final_answer: "done" })),
    );
    const result = await runResearchAgent(env, opts);
    expect(result.stop).toBe("final_answer");
    expect(result.steps).toBe(3);
    expect(prompt(1)).toContain("Your last answer did not follow the format. Answer again with every entry: Reflection, Research Plan and Status");
    expect(prompt(2)).toContain("ActionInputParsingError: ");
    expect(prompt(2)).toContain("The action input for Execute Script must be a valid JSON object");
    // Once a step parsed, the failed one leaves the history.
    expect(prompt(3)).not.toContain("ActionInputParsingError");
    // The failed input never reached the environment.
    expect(trace(root).steps.map((s) => s.action.name)).toEqual(["Execute Script", "Final Answer"]);
  });

  it("stops when every retry is unreadable, naming the problem", async () => {
    const { env, opts } = await setup();
    llm.script(...Array.from({ length: 2 }, () => openaiText(answer("Fly Away", { where: "up" }))));
    const result = await runResearchAgent(env, { ...opts, maxRetries: 2 });
    expect(result.stop).toBe("no_valid_response");
    expect(result.error).toBe('no readable answer after 2 attempts: "Fly Away" is not one of the tools');
    expect(llm.pending()).toBe(0);
  });

  it("stops at its own step limit, and at the environment's", async () => {
    const first = await setup();
    llm.script(...Array.from({ length: 2 }, () => openaiText(answer("List Files", { dir_path: "." }))));
    expect(await runResearchAgent(first.env, { ...first.opts, maxSteps: 2 })).toMatchObject({ stop: "max_steps", steps: 2 });
    const second = await setup(2);
    llm.script(...Array.from({ length: 2 }, () => openaiText(answer("List Files", { dir_path: "." }))));
    expect(await runResearchAgent(second.env, second.opts)).toMatchObject({ stop: "env_final", steps: 2 });
    expect(trace(second.root).steps).toHaveLength(2);
  });

  it("shows only the last steps, older observations as <Done>, and summarises a long observation", async () => {
    const { env, ws, opts } = await setup();
    fs.writeFileSync(path.join(ws, "big.txt"), "x".repeat(12_000));
    llm.script(
      openaiText(answer("Read File", { file_name: "big.txt" })),
      openaiText("[Observation]: part one is x"),
      openaiText("[Observation]: part two is x"),
      openaiText("[Observation]: twelve thousand x"),
      openaiText(answer("List Files", { dir_path: "." }, "second")),
      openaiText(answer("List Files", { dir_path: "." }, "third")),
      openaiText(answer("Final Answer", { final_answer: "done" })),
    );
    const result = await runResearchAgent(env, { ...opts, stepsInContext: 2, observationStepsInContext: 1 });
    expect(result.stop).toBe("final_answer");
    expect(prompt(1)).toContain("from character 1 to character 10001:");
    expect(prompt(2)).toContain("from character 10001 to character 12001:");
    expect(prompt(3)).toContain("Part 0:\n\n[Observation]: part one is x\n\nPart 1:\n\n[Observation]: part two is x");
    expect(prompt(4)).toContain("Observation:\n```\n twelve thousand x\n```");
    // Third step's prompt: steps 0 and 1 in the window, step 0's observation replaced.
    expect(prompt(5)).toContain("Thought:  next step\nAction:  Read File");
    expect(prompt(5)).toContain("Observation:<Done>");
    // Fourth: only steps 1 and 2.
    expect(prompt(6)).not.toContain("Action:  Read File");
    expect(prompt(6)).toContain("Thought:  third");
  });

  it("in retrieval mode keeps a research log and retrieves from it past the window", async () => {
    const { env, ws, root, opts } = await setup();
    llm.script(
      openaiText(answer("List Files", { dir_path: "." })),
      openaiText("[Reasoning]: look around\n[Action]: listed\n[Observation]: three entries"),
      openaiText(answer("Execute Script", { script_name: "train.py" })),
      openaiText("[Reasoning]: baseline\n[Action]: ran train.py\n[Observation]: accuracy 0.75"),
      openaiText("Relevant: the baseline accuracy is 0.75"),
      openaiText(answer("Final Answer", { final_answer: "0.75" })),
    );
    const result = await runResearchAgent(env, { ...opts, retrieval: true, stepsInContext: 1 });
    expect(result.stop).toBe("final_answer");
    const log = fs.readFileSync(path.join(ws, "research_log.log"), "utf8");
    expect(log).toBe(
      "\n\nStep 0:\n[Reasoning]: look around\n[Action]: listed\n[Observation]: three entries\n\n" +
        "\n\nStep 1:\n[Reasoning]: baseline\n[Action]: ran train.py\n[Observation]: accuracy 0.75\n\n",
    );
    expect(prompt(4)).toContain("Step 1:\n[Reasoning]: baseline");
    expect(prompt(5)).toContain("A summary of the relevant actions and observations so far:\n```\nRelevant: the baseline accuracy is 0.75\n```");
    expect(trace(root).steps.map((s) => s.action.name)).toEqual([
      "List Files",
      "Append Summary to Research Log",
      "Execute Script",
      "Append Summary to Research Log",
      "Retrieval from Research Log",
      "Final Answer",
    ]);
  });

  it("stops with llm_error when the model cannot be reached", async () => {
    const { env, opts } = await setup();
    llm.script({ status: 401, body: { error: { message: "bad key" } } });
    const result = await runResearchAgent(env, opts);
    expect(result.stop).toBe("llm_error");
    expect(result.error).toMatch(/401/);
  });
});
