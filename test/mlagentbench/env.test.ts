import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/llm/client.js";
import { ACTIONS, actionTable } from "../../src/mlagentbench/env/actions.js";
import { unifiedDiff, splitKeepEnds } from "../../src/mlagentbench/env/diff.js";
import { Environment, type EnvironmentOptions } from "../../src/mlagentbench/env/environment.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { localTestSandbox } from "../helpers/local-sandbox.js";

const TRAIN = "import sys\nprint('hello from train')\nprint('warn', file=sys.stderr)\n";

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

/** A fresh workspace with a script, a read-only data file and a sub folder, and an environment over it. */
async function setup(overrides: Partial<EnvironmentOptions> = {}): Promise<{ env: Environment; ws: string; traceDir: string; root: string }> {
  const root = tempDir("mlab-env-");
  const ws = path.join(root, "workspace");
  fs.mkdirSync(path.join(ws, "sub"), { recursive: true });
  fs.writeFileSync(path.join(ws, "train.py"), TRAIN);
  fs.writeFileSync(path.join(ws, "train.csv"), "a,b\n1,2\n");
  fs.writeFileSync(path.join(ws, "sub", "notes.txt"), "n1\n");
  fs.writeFileSync(path.join(root, "secret.txt"), "outside\n");
  const dirs = Object.fromEntries(["submission", "code", "logs"].map((d) => [d, path.join(root, d)])) as Record<string, string>;
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const sandbox = await localTestSandbox(`mlab-env-${path.basename(root)}`, ws, { submission: dirs.submission!, code: dirs.code!, logs: dirs.logs!, workspace: ws });
  sandboxes.push(sandbox);
  const traceDir = path.join(root, "trace");
  const env = new Environment({
    workspace: ws,
    readOnly: ["train.csv"],
    sandbox,
    sandboxWorkspace: ws,
    python: "/usr/bin/python3",
    llm: createClient(`compat/fake-model@${llm.openaiBaseUrl}`, { env: {}, retry: { retries: 0 }, timeoutMs: 5000 }),
    researchProblem: "Make train.py better.",
    maxSteps: 50,
    maxTimeMs: 60_000,
    execTimeoutMs: 20_000,
    outputCap: 1 << 20,
    traceDir,
    ...overrides,
  });
  return { env, ws, traceDir, root };
}

const read = (ws: string, rel: string): string => fs.readFileSync(path.join(ws, rel), "utf8");

describe("action table", () => {
  it("lists every action with its upstream name and argument names", () => {
    expect(actionTable().map((a) => a.name)).toEqual([
      "List Files",
      "Read File",
      "Write File",
      "Append File",
      "Copy File",
      "Undo Edit Script",
      "Execute Script",
      "Final Answer",
      "Understand File",
      "Append Summary to Research Log",
      "Inspect Script Lines",
      "Edit Script (AI)",
      "Edit Script Segment (AI)",
      "Reflection",
      "Retrieval from Research Log",
    ]);
    const byName = Object.fromEntries(actionTable().map((a) => [a.name, a]));
    expect(Object.keys(byName["Edit Script Segment (AI)"]!.usage)).toEqual(["script_name", "start_line_number", "end_line_number", "edit_instruction", "save_name"]);
    expect(byName["Inspect Script Lines"]!.schema.safeParse({ script_name: "a.py", start_line_number: 1, end_line_number: "9" }).success).toBe(true);
    expect(byName["Copy File"]!.schema.safeParse({ source: "a" }).success).toBe(false);
    for (const a of ACTIONS) expect(a.description.length).toBeGreaterThan(10);
  });
});

describe("file actions", () => {
  it("lists, reads, writes, appends and copies with upstream's observations", async () => {
    const { env, ws } = await setup();
    fs.chmodSync(path.join(ws, "train.py"), 0o755);
    expect(await env.step("List Files", { dir_path: "." })).toBe("backup/\nsub/\ntrain.csv\ntrain.py*\n");
    expect(await env.step("List Files", { dir_path: "sub" })).toBe("notes.txt\n");
    expect(await env.step("List Files", { dir_path: "nope" })).toBe("EnvError: Cannot list file in the nope directory");
    expect(await env.step("Read File", { file_name: "sub/notes.txt" })).toBe("n1\n");
    expect(await env.step("Read File", { file_name: "missing.txt" })).toBe("EnvError: cannot read file missing.txt");
    expect(await env.step("Write File", { file_name: "out.txt", content: "x" })).toBe("File out.txt written successfully.");
    expect(await env.step("Append File", { file_name: "out.txt", content: "y" })).toBe("File out.txt appended successfully.");
    expect(read(ws, "out.txt")).toBe("xy");
    expect(await env.step("Write File", { file_name: "nodir/out.txt", content: "x" })).toBe("EnvError: cannot write file nodir/out.txt");
    expect(await env.step("Copy File", { source: "out.txt", destination: "sub/copy.txt" })).toBe("File out.txt copied to sub/copy.txt");
    expect(read(ws, "sub/copy.txt")).toBe("xy");
    expect(await env.step("Copy File", { source: "none.txt", destination: "b.txt" })).toBe(
      "EnvError: File none.txt copy to b.txt failed. Check whether the source and destinations are valid.",
    );
  });

  it("answers bad action names and bad input as upstream does", async () => {
    const { env } = await setup();
    const invalid = await env.step("Delete File", { file_name: "x" });
    expect(invalid).toBe(`Invalid action: Delete File. Action did not execute. Please use one of the following actions:\n${ACTIONS.map((a) => a.name).join(", ")}`);
    const missing = await env.step("Copy File", { source: "train.py" });
    expect(missing.startsWith("EnvError: The action input for Copy File needs to be a valid json with proper entries. You may have missed the comma between entries. Please use the correct format and try again:\n{\n            source: [")).toBe(true);
    expect(missing).toMatch(/,\n {12}destination: \[.*\]\n\}$/);
    expect(await env.step("Write File", { file_name: "a.txt", content: 5 })).toMatch(/^EnvError: The action input for Write File needs/);
    // Input that is not an object gets the same hint without the EnvError prefix.
    expect(await env.step("Read File", "train.py")).toMatch(/^The action input for Read File needs to be a valid json/);
    // Extra keys are ignored, as Python's **kwargs does.
    expect(await env.step("Read File", { file_name: "sub/notes.txt", extra: 1 })).toBe("n1\n");
  });
});

describe("confinement", () => {
  it("refuses .., absolute paths and symlinks that leave the workspace", async () => {
    const { env, ws, root } = await setup();
    const out = (p: string) => `EnvError: cannot access file ${p} because it is not in the work directory.`;
    expect(await env.step("Read File", { file_name: "../secret.txt" })).toBe(out("../secret.txt"));
    expect(await env.step("Read File", { file_name: "sub/../../secret.txt" })).toBe(out("sub/../../secret.txt"));
    expect(await env.step("Read File", { file_name: path.join(root, "secret.txt") })).toBe(out(path.join(root, "secret.txt")));
    expect(await env.step("List Files", { dir_path: ".." })).toBe(out(".."));
    fs.symlinkSync(path.join(root, "secret.txt"), path.join(ws, "link.txt"));
    fs.symlinkSync(root, path.join(ws, "linkdir"));
    fs.symlinkSync(path.join(root, "new.txt"), path.join(ws, "dangling.txt"));
    expect(await env.step("Read File", { file_name: "link.txt" })).toBe(out("link.txt"));
    expect(await env.step("Write File", { file_name: "linkdir/evil.txt", content: "x" })).toBe(out("linkdir/evil.txt"));
    expect(await env.step("Write File", { file_name: "dangling.txt", content: "x" })).toBe(out("dangling.txt"));
    expect(await env.step("Copy File", { source: "link.txt", destination: "copy.txt" })).toBe(out("link.txt"));
    fs.symlinkSync("loop2", path.join(ws, "loop1"));
    fs.symlinkSync("loop1", path.join(ws, "loop2"));
    expect(await env.step("Write File", { file_name: "loop1", content: "x" })).toBe(out("loop1"));
    expect(await env.step("Copy File", { source: "train.py", destination: "../copy.txt" })).toBe(out("../copy.txt"));
    expect(await env.step("Execute Script", { script_name: "../x.py" })).toBe(out("../x.py"));
    expect(fs.existsSync(path.join(root, "evil.txt"))).toBe(false);
    expect(fs.existsSync(path.join(root, "new.txt"))).toBe(false);
    expect(fs.existsSync(path.join(root, "copy.txt"))).toBe(false);
    // A path with .. that stays inside is fine.
    expect(await env.step("Read File", { file_name: "sub/../sub/notes.txt" })).toBe("n1\n");
  });

  it("enforces read-only files whatever the spelling", async () => {
    const { env, ws } = await setup();
    fs.symlinkSync("train.csv", path.join(ws, "alias.csv"));
    for (const name of ["train.csv", "./train.csv", "sub/../train.csv", ".//train.csv", "alias.csv"]) {
      const ro = `EnvError: cannot write file ${name} because it is a read-only file.`;
      expect(await env.step("Write File", { file_name: name, content: "x" })).toBe(ro);
      expect(await env.step("Append File", { file_name: name, content: "x" })).toBe(ro);
      expect(await env.step("Copy File", { source: "train.py", destination: name })).toBe(ro);
      expect(await env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "x", save_name: name })).toBe(ro);
    }
    expect(read(ws, "train.csv")).toBe("a,b\n1,2\n");
    expect(await env.step("Read File", { file_name: "./train.csv" })).toBe("a,b\n1,2\n");
    expect(llm.requests).toHaveLength(0);
  });

  it("treats a read-only folder as read-only all the way down", async () => {
    const { env, ws } = await setup({ readOnly: ["./sub/"] });
    expect(await env.step("Write File", { file_name: "sub/new.txt", content: "x" })).toBe("EnvError: cannot write file sub/new.txt because it is a read-only file.");
    expect(await env.step("Copy File", { source: "train.py", destination: "sub/notes.txt" })).toBe(
      "EnvError: cannot write file sub/notes.txt because it is a read-only file.",
    );
    expect(await env.step("Write File", { file_name: "subway.txt", content: "x" })).toBe("File subway.txt written successfully.");
    expect(fs.readdirSync(path.join(ws, "sub"))).toEqual(["notes.txt"]);
  });
});

describe("scripts", () => {
  it("executes in the sandbox and reports stdout, or stderr on failure", async () => {
    const { env, ws } = await setup();
    expect(await env.step("Execute Script", { script_name: "train.py" })).toBe("The script has been executed. Here is the output:\nhello from train\n");
    fs.writeFileSync(path.join(ws, "quiet.py"), "import sys\nsys.stderr.write('only err\\n')\n");
    expect(await env.step("Execute Script", { script_name: "./quiet.py" })).toBe("The script has been executed. Here is the output:\nonly err\n");
    fs.writeFileSync(path.join(ws, "sub", "bad.py"), "print('before')\nraise ValueError('boom')\n");
    const bad = await env.step("Execute Script", { script_name: "sub/bad.py" });
    expect(bad).toMatch(/^The script has been executed\. Here is the output:\nTraceback \(most recent call last\):\n/);
    expect(bad).toContain("ValueError: boom");
    expect(bad).not.toContain("before");
    // Scripts run with the workspace as their working directory.
    fs.writeFileSync(path.join(ws, "cwd.py"), "print(open('train.csv').read().splitlines()[0])\n");
    expect(await env.step("Execute Script", { script_name: "cwd.py" })).toBe("The script has been executed. Here is the output:\na,b\n");
    expect(await env.step("Execute Script", { script_name: "none.py" })).toBe("EnvError: The file none.py does not exist.");
  });

  it("stops a script at its timeout and caps its output", async () => {
    const { env, ws } = await setup({ execTimeoutMs: 1500, outputCap: 1000 });
    fs.writeFileSync(path.join(ws, "slow.py"), "import time\nprint('start')\ntime.sleep(30)\n");
    const t0 = Date.now();
    const slow = await env.step("Execute Script", { script_name: "slow.py" });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(slow).toContain("its time limit]");
    fs.writeFileSync(path.join(ws, "loud.py"), "print('x' * 100000)\n");
    const loud = await env.step("Execute Script", { script_name: "loud.py" });
    expect(loud.length).toBeLessThan(1200);
    expect(loud).toContain("[output cut at 1000 bytes]");
  });

  it("inspects at most 100 lines with Python slice semantics", async () => {
    const { env, ws } = await setup();
    fs.writeFileSync(path.join(ws, "long.py"), Array.from({ length: 150 }, (_, i) => `line${i + 1}`).join("\n") + "\n");
    const head = "Here are the lines (the file ends at line 151):\n\n";
    expect(await env.step("Inspect Script Lines", { script_name: "long.py", start_line_number: 2, end_line_number: "4" })).toBe(head + "line2\nline3\nline4");
    expect(await env.step("Inspect Script Lines", { script_name: "long.py", start_line_number: "1", end_line_number: 101 })).toBe(
      head + Array.from({ length: 101 }, (_, i) => `line${i + 1}`).join("\n"),
    );
    expect(await env.step("Inspect Script Lines", { script_name: "long.py", start_line_number: 1, end_line_number: 102 })).toBe(
      "EnvError: the number of lines to display is limited to 100 lines",
    );
    expect(await env.step("Inspect Script Lines", { script_name: "long.py", start_line_number: 0, end_line_number: 2 })).toBe(head + "line1\nline2");
    expect(await env.step("Inspect Script Lines", { script_name: "long.py", start_line_number: 149, end_line_number: -1 })).toBe(head + "line149\nline150");
    expect(await env.step("Inspect Script Lines", { script_name: "long.py", start_line_number: "one", end_line_number: 2 })).toBe(
      "EnvError: start_line_number and end_line_number must be integers",
    );
    expect(await env.step("Inspect Script Lines", { script_name: "nope.py", start_line_number: 1, end_line_number: 2 })).toBe("EnvError: cannot find script nope.py");
    expect(await env.step("Inspect Script Lines", { script_name: "../x.py", start_line_number: 1, end_line_number: 2 })).toBe("EnvError: cannot find script ../x.py");
  });
});

describe("AI actions (fake LLM server)", () => {
  it("edits a script, shows the diff, backs it up, and undoes the edit", async () => {
    const { env, ws, traceDir } = await setup();
    llm.script(openaiText("Sure.\n```python\nimport sys\nprint('hello from train v2')\nprint('warn', file=sys.stderr)\n```\nDone."));
    const obs = await env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "Say v2.", save_name: "train.py" });
    expect(obs).toBe(
      "The edited file is saved to train.py. Here is the diff, please check if the edit is correct and desirable:\n\n" +
        // As Python's difflib prints it: the old last line ends in a newline, the new one does not.
        "--- \n+++ \n@@ -1,3 +1,3 @@\n import sys\n-print('hello from train')\n-print('warn', file=sys.stderr)\n+print('hello from train v2')\n+print('warn', file=sys.stderr)",
    );
    expect(read(ws, "train.py")).toBe("import sys\nprint('hello from train v2')\nprint('warn', file=sys.stderr)");
    const prompt = llm.requests[0]!.body.messages[0].content as string;
    expect(prompt).toContain(TRAIN);
    expect(prompt).toContain("Say v2.");
    expect(fs.readdirSync(path.join(ws, "backup"))).toHaveLength(1);
    expect(fs.readFileSync(path.join(traceDir, "tool_logs", "step_0_tool_log.log"), "utf8")).toContain("hello from train v2");

    llm.script(openaiText("```python\nprint('v3')\n```"));
    await env.step("Edit Script (AI)", { script_name: "./train.py", edit_instruction: "Say v3.", save_name: "train.py" });
    expect(read(ws, "train.py")).toBe("print('v3')");
    expect(await env.step("Undo Edit Script", { script_name: "train.py" })).toBe(
      "Content of train.py after undo the most recent edit:\nimport sys\nprint('hello from train v2')\nprint('warn', file=sys.stderr)",
    );
    expect(await env.step("Undo Edit Script", { script_name: "train.py" })).toBe(`Content of train.py after undo the most recent edit:\n${TRAIN}`);
    expect(await env.step("Undo Edit Script", { script_name: "train.py" })).toBe("EnvError: There is no change to undo.");
    expect(await env.step("Undo Edit Script", { script_name: "../train.py" })).toBe(
      "EnvError: cannot access file ../train.py because it is not in the work directory.",
    );
  });

  it("creates a missing script, saves under another name, and fails without a code block", async () => {
    const { env, ws } = await setup();
    llm.script(openaiText("```python\nprint(1)\n```"));
    const obs = await env.step("Edit Script (AI)", { script_name: "new.py", edit_instruction: "Print 1.", save_name: "sub/new2.py" });
    expect(obs).toBe("The edited file is saved to sub/new2.py. Here is the diff, please check if the edit is correct and desirable:\n\n--- \n+++ \n@@ -0,0 +1 @@\n+print(1)");
    expect(read(ws, "new.py")).toBe("");
    expect(read(ws, "sub/new2.py")).toBe("print(1)");
    llm.script(openaiText("I would rather not write code."));
    expect(await env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "x", save_name: "train.py" })).toBe(
      "EnvError: Error executing Edit Script (AI).",
    );
    expect(read(ws, "train.py")).toBe(TRAIN);
    llm.script({ status: 400, body: { error: { message: "bad request" } } });
    expect(await env.step("Reflection", { things_to_reflect_on: "x" })).toMatch(/^EnvError: cannot read file research_log.log$/);
    await env.step("Append Summary to Research Log", { content: "note" });
    expect(await env.step("Reflection", { things_to_reflect_on: "x" })).toMatch(/^LLMError: /);
  });

  it("edits a segment and keeps the other lines", async () => {
    const { env, ws } = await setup();
    fs.writeFileSync(path.join(ws, "s.py"), "a = 1\nb = 2\nc = 3\nd = 4\n");
    llm.script(openaiText("```python\nb = 20\nc = 30\n```"));
    const obs = await env.step("Edit Script Segment (AI)", { script_name: "s.py", start_line_number: 2, end_line_number: "3", edit_instruction: "x10", save_name: "s.py" });
    expect(read(ws, "s.py")).toBe("a = 1\nb = 20\nc = 30\nd = 4\n");
    expect(llm.requests[0]!.body.messages[0].content).toContain("b = 2\nc = 3\n```");
    // Upstream diffs the segment shown to the model against the whole new file.
    expect(obs).toBe(
      "The edited file is saved to s.py. Here is the diff, please check if the edit is correct and desirable:\n\n" +
        "--- \n+++ \n@@ -1,2 +1,4 @@\n-b = 2\n-c = 3+a = 1\n+b = 20\n+c = 30\n+d = 4\n",
    );
    expect(await env.step("Edit Script Segment (AI)", { script_name: "s.py", start_line_number: "x", end_line_number: 3, edit_instruction: "x", save_name: "s.py" })).toBe(
      "EnvError: start_line_number and end_line_number must be integers",
    );
    expect(await env.step("Undo Edit Script", { script_name: "s.py" })).toBe("Content of s.py after undo the most recent edit:\na = 1\nb = 2\nc = 3\nd = 4\n");
  });

  it("understands a file in blocks, reflects and retrieves from the research log", async () => {
    const { env, ws, traceDir } = await setup();
    llm.script(openaiText("It prints a greeting (line 2)."));
    expect(await env.step("Understand File", { file_name: "train.py", things_to_look_for: "what it prints" })).toBe("It prints a greeting (line 2).");
    expect(await env.step("Understand File", { file_name: "none.py", things_to_look_for: "x" })).toBe("EnvError: cannot read file none.py");
    // 3 lines of 6000 characters: each block holds one line, then one summary call.
    fs.writeFileSync(path.join(ws, "big.txt"), ["a", "b", "c"].map((c) => c.repeat(6000)).join("\n"));
    llm.script(openaiText("part a"), openaiText("part b"), openaiText("part c"), openaiText("summary"));
    expect(await env.step("Understand File", { file_name: "big.txt", things_to_look_for: "letters" })).toBe("summary");
    const prompts = llm.requests.slice(1).map((r) => r.body.messages[0].content as string);
    expect(prompts).toHaveLength(4);
    expect(prompts[1]).toContain("lines 2 to 2");
    expect(prompts[3]).toContain("part a");
    expect(prompts[3]).toContain("part c");
    expect(fs.readFileSync(path.join(traceDir, "tool_logs", "step_2_tool_log.log"), "utf8").match(/===== prompt =====/g)).toHaveLength(4);

    expect(await env.step("Append Summary to Research Log", { content: "Tried v1: accuracy 0.5." })).toBe("Successfully appended to research log");
    expect(read(ws, "research_log.log")).toBe("Tried v1: accuracy 0.5.\n");
    llm.script(openaiText("Try a bigger model."));
    expect(await env.step("Reflection", { things_to_reflect_on: "what next" })).toBe("Reflection: Try a bigger model.\n");
    const reflectPrompt = llm.requests[llm.requests.length - 1]!.body.messages[0].content as string;
    expect(reflectPrompt).toContain("Make train.py better.");
    expect(reflectPrompt).toContain("Tried v1: accuracy 0.5.");
    llm.script(openaiText("v1 scored 0.5"));
    expect(await env.step("Retrieval from Research Log", { current_plan: "improve" })).toBe("v1 scored 0.5");
  });

  it("says so when no LLM is configured", async () => {
    const { env } = await setup({ llm: undefined });
    expect(await env.step("Reflection", { things_to_reflect_on: "x" })).toBe("EnvError: cannot read file research_log.log");
    expect(await env.step("Understand File", { file_name: "train.py", things_to_look_for: "x" })).toBe("LLMError: no LLM is configured for this environment");
  });
});

describe("limits and trace", () => {
  it("ends after Final Answer and at the step limit", async () => {
    const { env } = await setup({ maxSteps: 2 });
    expect(env.isFinal()).toBe(false);
    await env.step("List Files", { dir_path: "." });
    await env.step("List Files", { dir_path: "." });
    expect(env.isFinal()).toBe(true);
    const shut = "The environment has shut down because the maximum number of steps or time has been reached. Please submit your final answer.";
    expect(await env.step("Read File", { file_name: "train.py" })).toBe(shut);
    expect(await env.step("Final Answer", { final_answer: "done" })).toBe("end");
    const other = await setup();
    expect(await other.env.step("Final Answer", { final_answer: "done" })).toBe("end");
    expect(other.env.isFinal()).toBe(true);
    expect(await other.env.step("Read File", { file_name: "train.py" })).toBe(shut);
  });

  it("ends at the time limit and bounds a script by the time left", async () => {
    const { env, ws } = await setup({ maxTimeMs: 1500, execTimeoutMs: 60_000 });
    fs.writeFileSync(path.join(ws, "slow.py"), "import time\ntime.sleep(30)\n");
    const t0 = Date.now();
    expect(await env.step("Execute Script", { script_name: "slow.py" })).toContain("its time limit]");
    expect(Date.now() - t0).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(env.isFinal()).toBe(true);
    expect(await env.step("List Files", { dir_path: "." })).toMatch(/^The environment has shut down/);
  });

  it("writes trace.json after every step with snapshots of changed files only", async () => {
    const { env, ws, traceDir } = await setup();
    await env.step("List Files", { dir_path: "." });
    const first = JSON.parse(fs.readFileSync(path.join(traceDir, "trace.json"), "utf8"));
    expect(first.steps).toHaveLength(1);
    expect(first.read_only_files).toEqual(["train.csv"]);
    expect(first.steps[0].action).toEqual({ name: "List Files", args: { dir_path: "." } });
    expect(first.steps[0].observation).toBe("backup/\nsub/\ntrain.csv\ntrain.py\n");
    expect(first.steps[0].timestamp).toBeGreaterThanOrEqual(first.steps[0].started);
    // The first snapshot holds every writable file; read-only files are never copied.
    expect(first.steps[0].files).toEqual({ changed: ["sub/notes.txt", "train.py"], deleted: [], tooLarge: [] });
    expect(fs.existsSync(path.join(traceDir, "snapshots", "0", "train.csv"))).toBe(false);
    expect(fs.readFileSync(path.join(traceDir, "snapshots", "0", "train.py"), "utf8")).toBe(TRAIN);

    await env.step("Write File", { file_name: "sub/notes.txt", content: "n2" });
    await env.step("Read File", { file_name: "train.py" });
    fs.rmSync(path.join(ws, "sub", "notes.txt"));
    await env.step("Write File", { file_name: "train.csv", content: "x" });
    const trace = JSON.parse(fs.readFileSync(path.join(traceDir, "trace.json"), "utf8"));
    expect(trace.steps.map((s: { files: unknown }) => s.files)).toEqual([
      { changed: ["sub/notes.txt", "train.py"], deleted: [], tooLarge: [] },
      { changed: ["sub/notes.txt"], deleted: [], tooLarge: [] },
      { changed: [], deleted: [], tooLarge: [] },
      { changed: [], deleted: ["sub/notes.txt"], tooLarge: [] },
    ]);
    expect(fs.readdirSync(path.join(traceDir, "snapshots", "1"), { recursive: true }).sort()).toEqual(["sub", path.join("sub", "notes.txt")]);
    expect(fs.readFileSync(path.join(traceDir, "snapshots", "1", "sub", "notes.txt"), "utf8")).toBe("n2");
    expect(fs.existsSync(path.join(traceDir, "snapshots", "2"))).toBe(false);
    expect(trace.steps[3].observation).toBe("EnvError: cannot write file train.csv because it is a read-only file.");
    expect(trace.task_description).toBe("Make train.py better.");
    expect(trace.action_infos.map((a: { name: string }) => a.name)).toEqual(ACTIONS.map((a) => a.name));
    // No temporary files are left next to the trace.
    expect(fs.readdirSync(traceDir).sort()).toEqual(["snapshots", "tool_logs", "trace.json"]);
  });
});

describe("unified diff", () => {
  // Expected strings printed by Python 3's difflib.unified_diff on the same lines.
  it("matches Python difflib's hunks on a multi-hunk edit", () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}\n`);
    const b = [...a];
    b[2] = "X\n";
    b.splice(15, 1);
    expect(unifiedDiff(a, b)).toBe(
      "--- \n+++ \n@@ -1,6 +1,6 @@\n l0\n l1\n-l2\n+X\n l3\n l4\n l5\n@@ -13,7 +13,6 @@\n l12\n l13\n l14\n-l15\n l16\n l17\n l18\n",
    );
    expect(unifiedDiff(splitKeepEnds("same\n"), splitKeepEnds("same\n"))).toBe("");
  });

  it("agrees with Python's difflib on random edits, including files of 200+ lines with repeated lines", () => {
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const cases: [string[], string[]][] = [];
    for (let c = 0; c < 60; c++) {
      const len = c < 50 ? rand(30) : 200 + rand(100);
      const vocab = 2 + rand(c < 50 ? 12 : 6);
      const a = Array.from({ length: len }, () => `v${rand(vocab)}\n`);
      const b = [...a];
      for (let e = rand(6); e >= 0; e--) {
        const at = rand(b.length + 1);
        const kind = rand(3);
        if (kind === 0) b.splice(at, rand(4));
        else if (kind === 1) b.splice(at, 0, ...Array.from({ length: 1 + rand(3) }, () => `n${rand(vocab + 2)}\n`));
        else b.splice(at, 1, `r${rand(5)}`);
      }
      cases.push([a, b]);
    }
    const script = "import difflib, json, sys\nprint(json.dumps([''.join(difflib.unified_diff(a, b)) for a, b in json.load(sys.stdin)]))";
    const expected = JSON.parse(execFileSync("/usr/bin/python3", ["-c", script], { input: JSON.stringify(cases) }).toString()) as string[];
    expect(cases.map(([a, b]) => unifiedDiff(a, b))).toEqual(expected);
  });
});
