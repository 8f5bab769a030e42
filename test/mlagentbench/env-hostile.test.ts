import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CompletionRequest, CompletionResult, LLMClient } from "../../src/llm/types.js";
import { readTrace } from "../../src/mlagentbench/eval/layout.js";
import { Environment, type EnvironmentOptions, type TraceStep } from "../../src/mlagentbench/env/environment.js";
import { walkedBefore, walkWorkspace } from "../../src/mlagentbench/env/files.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";
import { localTestSandbox } from "../helpers/local-sandbox.js";

const SECRET = "SECRET-SENTINEL-7f3a9c";
const VICTIM = "victim bytes, must never change\n";
const TRAIN = "print('hello')\n";
const PY = "/usr/bin/python3";

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

/** An LLM that answers with the given texts in turn and records its prompts. */
function fakeLLM(answers: string[] = []): LLMClient & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    model: "fake/model",
    prompts,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      prompts.push(req.messages.map((m) => m.content).join("\n"));
      return {
        text: answers.shift() ?? "no answer",
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
        finishReason: "stop",
        model: "fake/model",
        latencyMs: 0,
        costUsd: null,
        attempts: 1,
      };
    },
  };
}

interface Setup {
  env: Environment;
  ws: string;
  root: string;
  outside: string;
  traceDir: string;
  runDir: string;
  llm: ReturnType<typeof fakeLLM>;
}

/**
 * A workspace with a script, an outside folder holding a secret and a victim file the harness must
 * never read or write, and an environment over the workspace.
 */
async function setup(overrides: Partial<EnvironmentOptions> = {}, answers: string[] = []): Promise<Setup> {
  const root = fs.realpathSync(tempDir("mlab-hostile-"));
  const ws = path.join(root, "workspace");
  const outside = path.join(root, "outside");
  fs.mkdirSync(path.join(ws, "sub"), { recursive: true });
  fs.mkdirSync(path.join(outside, "dir"), { recursive: true });
  fs.writeFileSync(path.join(ws, "train.py"), TRAIN);
  fs.writeFileSync(path.join(outside, "secret.txt"), SECRET + "\n");
  fs.writeFileSync(path.join(outside, "victim.txt"), VICTIM);
  const dirs = Object.fromEntries(["submission", "code", "logs"].map((d) => [d, path.join(root, d)])) as Record<"submission" | "code" | "logs", string>;
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const sandbox = await localTestSandbox(`mlab-hostile-${path.basename(root)}`, ws, { ...dirs, workspace: ws });
  sandboxes.push(sandbox);
  const runDir = path.join(root, "run");
  const traceDir = path.join(runDir, "trace");
  const llm = fakeLLM(answers);
  const env = new Environment({
    workspace: ws,
    sandbox,
    sandboxWorkspace: ws,
    python: PY,
    llm,
    researchProblem: "Make train.py better.",
    maxSteps: 100,
    maxTimeMs: 120_000,
    execTimeoutMs: 20_000,
    outputCap: 1 << 20,
    traceDir,
    ...overrides,
  });
  return { env, ws, root, outside, traceDir, runDir, llm };
}

/** Every file under `dir` (not following links), as absolute paths. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) out.push(p);
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return out;
}

/** The outside folder is as setup made it, and the secret is in no observation, trace, tool log or snapshot. */
function assertUntouched(s: Setup): void {
  expect(fs.readdirSync(s.outside).sort()).toEqual(["dir", "secret.txt", "victim.txt"]);
  expect(fs.readdirSync(path.join(s.outside, "dir"))).toEqual([]);
  expect(fs.readFileSync(path.join(s.outside, "victim.txt"), "utf8")).toBe(VICTIM);
  for (const f of filesUnder(s.traceDir)) expect(fs.readFileSync(f, "utf8").includes(SECRET), f).toBe(false);
  for (const step of s.env.trace()) expect(step.observation.includes(SECRET)).toBe(false);
  for (const p of s.llm.prompts) expect(p.includes(SECRET)).toBe(false);
}

const mkfifo = (p: string): void => void execFileSync("mkfifo", [p]);
const mksocket = (p: string): void => void execFileSync(PY, ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", p]);
const outsideMsg = (p: string) => `EnvError: cannot access file ${p} because it is not in the work directory.`;
const lastFiles = (env: Environment): TraceStep["files"] => env.trace().at(-1)!.files;

/** Run `fn` and check it took less than `ms`: nothing opened a FIFO blocking. */
async function prompt<T>(fn: () => Promise<T>, ms = 5000): Promise<T> {
  const t0 = Date.now();
  const out = await fn();
  expect(Date.now() - t0).toBeLessThan(ms);
  return out;
}

describe("reads of hostile entries", () => {
  it("refuses FIFOs and sockets promptly, without blocking", async () => {
    const s = await setup();
    mkfifo(path.join(s.ws, "pipe"));
    mksocket(path.join(s.ws, "sock"));
    const notRegular = (n: string) => `EnvError: cannot read file ${n}: it is not a regular file`;
    expect(await prompt(() => s.env.step("Read File", { file_name: "pipe" }))).toBe(notRegular("pipe"));
    expect(await prompt(() => s.env.step("Read File", { file_name: "sock" }))).toBe(notRegular("sock"));
    expect(await prompt(() => s.env.step("Inspect Script Lines", { script_name: "pipe", start_line_number: 1, end_line_number: 5 }))).toBe(notRegular("pipe"));
    expect(await prompt(() => s.env.step("Understand File", { file_name: "pipe", things_to_look_for: "x" }))).toBe(notRegular("pipe"));
    expect(await prompt(() => s.env.step("Edit Script (AI)", { script_name: "pipe", edit_instruction: "x", save_name: "out.py" }))).toBe(notRegular("pipe"));
    expect(s.llm.prompts).toHaveLength(0);
    expect(fs.existsSync(path.join(s.ws, "out.py"))).toBe(false);
    expect(fs.lstatSync(path.join(s.ws, "pipe")).isFIFO()).toBe(true);
    expect(await s.env.step("List Files", { dir_path: "." })).toBe("backup/\npipe|\nsock=\nsub/\ntrain.py\n");
    // A directory reads as it always did.
    expect(await s.env.step("Read File", { file_name: "sub" })).toBe("EnvError: cannot read file sub");
    expect(s.env.trace()[0]!.files.skipped).toEqual([
      { path: "pipe", reason: "not a regular file" },
      { path: "sock", reason: "not a regular file" },
    ]);
    // Listed once, when they appear.
    expect(lastFiles(s.env).skipped).toBeUndefined();
    assertUntouched(s);
  });

  it("refuses links to a secret outside and never shows its bytes", async () => {
    const s = await setup();
    fs.symlinkSync(path.join(s.outside, "secret.txt"), path.join(s.ws, "link.txt"));
    fs.symlinkSync(s.outside, path.join(s.ws, "out"));
    expect(await s.env.step("Read File", { file_name: "link.txt" })).toBe(outsideMsg("link.txt"));
    expect(await s.env.step("Read File", { file_name: "out/secret.txt" })).toBe(outsideMsg("out/secret.txt"));
    expect(await s.env.step("Inspect Script Lines", { script_name: "link.txt", start_line_number: 1, end_line_number: 1 })).toBe("EnvError: cannot find script link.txt");
    expect(await s.env.step("Understand File", { file_name: "link.txt", things_to_look_for: "x" })).toBe(outsideMsg("link.txt"));
    expect(await s.env.step("Copy File", { source: "link.txt", destination: "copy.txt" })).toBe(outsideMsg("link.txt"));
    expect(await s.env.step("List Files", { dir_path: "." })).toBe("backup/\nlink.txt@\nout@\nsub/\ntrain.py\n");
    expect(s.env.trace()[0]!.files.skipped).toEqual([
      { path: "link.txt", reason: "symbolic link" },
      { path: "out", reason: "symbolic link" },
    ]);
    assertUntouched(s);
  });

  it("reads at most 4 MiB of a 50 MB file, and inspects its lines without holding it", async () => {
    const s = await setup();
    const line = "x".repeat(97) + "é"; // 100 bytes with the newline; a two-byte character ends each line
    const count = (50 << 20) / 100;
    const lines = count + 1;
    const fd = fs.openSync(path.join(s.ws, "big.txt"), "w");
    const block = Buffer.from(`${line}\n`.repeat(10_000));
    for (let i = 0; i < Math.floor(count / 10_000); i++) fs.writeSync(fd, block);
    fs.writeSync(fd, Buffer.from(`${line}\n`.repeat(count % 10_000)));
    fs.closeSync(fd);
    const size = fs.statSync(path.join(s.ws, "big.txt")).size;
    expect(size).toBe(50 << 20);
    const obs = await s.env.step("Read File", { file_name: "big.txt" });
    const note = `\n[file cut at 4194304 of its ${size} bytes]`;
    expect(obs.endsWith(note)).toBe(true);
    const body = obs.slice(0, -note.length);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4 << 20);
    expect(body).not.toContain("\uFFFD");
    expect(body.startsWith(`${line}\n${line}\n`)).toBe(true);
    const head = `Here are the lines (the file ends at line ${lines}):\n\n`;
    expect(await s.env.step("Inspect Script Lines", { script_name: "big.txt", start_line_number: 1, end_line_number: 2 })).toBe(head + `${line}\n${line}`);
    expect(await s.env.step("Inspect Script Lines", { script_name: "big.txt", start_line_number: lines - 2, end_line_number: -1 })).toBe(head + `${line}\n${line}`);
    expect(await s.env.step("Inspect Script Lines", { script_name: "big.txt", start_line_number: lines, end_line_number: lines + 5 })).toBe(head);
    expect(await s.env.step("Edit Script (AI)", { script_name: "big.txt", edit_instruction: "x", save_name: "big.txt" })).toBe(
      "EnvError: cannot read file big.txt: it is larger than 4 MiB",
    );
    expect(s.llm.prompts).toHaveLength(0);
    expect(fs.statSync(path.join(s.ws, "big.txt")).size).toBe(size);
    // Over the snapshot cap: listed, not copied.
    expect(s.env.trace()[0]!.files).toEqual({ changed: ["train.py"], deleted: [], tooLarge: ["big.txt"] });
    expect(fs.existsSync(path.join(s.traceDir, "snapshots", "0", "big.txt"))).toBe(false);
  });

  it("cuts a long file at a character boundary", async () => {
    const s = await setup();
    fs.writeFileSync(path.join(s.ws, "utf.txt"), "a".repeat((4 << 20) - 1) + "é" + "b".repeat(10));
    const obs = await s.env.step("Read File", { file_name: "utf.txt" });
    expect(obs).toBe("a".repeat((4 << 20) - 1) + `\n[file cut at 4194304 of its ${(4 << 20) + 11} bytes]`);
    // A file of exactly the bound is read whole, as before.
    fs.writeFileSync(path.join(s.ws, "exact.txt"), "c".repeat(4 << 20));
    expect(await s.env.step("Read File", { file_name: "exact.txt" })).toBe("c".repeat(4 << 20));
  });

  it("inspects a file with one huge line: the output is cut, the line count is right", async () => {
    const s = await setup();
    fs.writeFileSync(path.join(s.ws, "wide.txt"), "a\n" + "y".repeat(6 << 20) + "\nz");
    const obs = await s.env.step("Inspect Script Lines", { script_name: "wide.txt", start_line_number: 1, end_line_number: 3 });
    const head = "Here are the lines (the file ends at line 3):\n\n";
    const tail = "\n[lines cut at 4194304 bytes]";
    expect(obs.startsWith(head + "a\nyyy")).toBe(true);
    expect(obs.endsWith(tail)).toBe(true);
    expect(obs.length).toBe(head.length + (4 << 20) + tail.length);
  });
});

describe("writes over hostile entries", () => {
  it("never writes through a link or a hard link to a file outside", async () => {
    const s = await setup();
    const victim = path.join(s.outside, "victim.txt");
    fs.symlinkSync(victim, path.join(s.ws, "evil.txt"));
    fs.symlinkSync(path.join(s.outside, "dir"), path.join(s.ws, "evildir"));
    for (const [action, input] of [
      ["Write File", { file_name: "evil.txt", content: "pwned" }],
      ["Append File", { file_name: "evil.txt", content: "pwned" }],
      ["Copy File", { source: "train.py", destination: "evil.txt" }],
      ["Write File", { file_name: "evildir/new.txt", content: "pwned" }],
      ["Copy File", { source: "train.py", destination: "evildir/new.txt" }],
    ] as const) {
      const target = "file_name" in input ? input.file_name : input.destination;
      expect(await s.env.step(action, input)).toBe(outsideMsg(target));
    }
    // A hard link is a second name of the outside file: writes replace the workspace's name only.
    fs.linkSync(victim, path.join(s.ws, "hard.txt"));
    expect(await s.env.step("Append File", { file_name: "hard.txt", content: "more" })).toBe("File hard.txt appended successfully.");
    expect(fs.readFileSync(path.join(s.ws, "hard.txt"), "utf8")).toBe(VICTIM + "more");
    fs.rmSync(path.join(s.ws, "hard.txt"));
    fs.linkSync(victim, path.join(s.ws, "hard.txt"));
    expect(await s.env.step("Write File", { file_name: "hard.txt", content: "new" })).toBe("File hard.txt written successfully.");
    fs.rmSync(path.join(s.ws, "hard.txt"));
    fs.linkSync(victim, path.join(s.ws, "hard.txt"));
    expect(await s.env.step("Copy File", { source: "train.py", destination: "hard.txt" })).toBe("File train.py copied to hard.txt");
    expect(fs.readFileSync(path.join(s.ws, "hard.txt"), "utf8")).toBe(TRAIN);
    expect(fs.statSync(victim).nlink).toBe(1);
    assertUntouched(s);
  });

  it("refuses to write to, append to, copy from or copy onto a FIFO, promptly", async () => {
    const s = await setup();
    mkfifo(path.join(s.ws, "pipe"));
    expect(await prompt(() => s.env.step("Write File", { file_name: "pipe", content: "x" }))).toBe("EnvError: cannot write file pipe: it is not a regular file");
    expect(await prompt(() => s.env.step("Append File", { file_name: "pipe", content: "x" }))).toBe("EnvError: cannot append file pipe: it is not a regular file");
    expect(await prompt(() => s.env.step("Copy File", { source: "pipe", destination: "c.txt" }))).toBe(
      "EnvError: File pipe copy to c.txt failed: pipe is not a regular file.",
    );
    expect(await prompt(() => s.env.step("Copy File", { source: "train.py", destination: "pipe" }))).toBe(
      "EnvError: File train.py copy to pipe failed: pipe is not a regular file.",
    );
    expect(fs.existsSync(path.join(s.ws, "c.txt"))).toBe(false);
    expect(fs.lstatSync(path.join(s.ws, "pipe")).isFIFO()).toBe(true);
    // No temporary files are left behind.
    expect(fs.readdirSync(s.ws).sort()).toEqual(["backup", "pipe", "sub", "train.py"]);
    // Copying a folder fails as it always did.
    expect(await s.env.step("Copy File", { source: "sub", destination: "c.txt" })).toBe(
      "EnvError: File sub copy to c.txt failed. Check whether the source and destinations are valid.",
    );
  });

  it("copies permission bits but never set-id bits, and keeps a file's mode when rewriting it", async () => {
    const s = await setup();
    const src = path.join(s.ws, "tool.sh");
    fs.writeFileSync(src, "#!/bin/sh\n");
    fs.chmodSync(src, 0o6755);
    expect(await s.env.step("Copy File", { source: "tool.sh", destination: "copy.sh" })).toBe("File tool.sh copied to copy.sh");
    expect(fs.statSync(path.join(s.ws, "copy.sh")).mode & 0o7777).toBe(0o755);
    fs.chmodSync(path.join(s.ws, "train.py"), 0o750);
    expect(await s.env.step("Write File", { file_name: "train.py", content: "print(2)\n" })).toBe("File train.py written successfully.");
    expect(fs.statSync(path.join(s.ws, "train.py")).mode & 0o7777).toBe(0o750);
    expect(await s.env.step("List Files", { dir_path: "." })).toBe("backup/\ncopy.sh*\nsub/\ntool.sh*\ntrain.py*\n");
  });
});

describe("the environment's own files", () => {
  const EDIT = "```python\nprint('v2')\n```";

  it("keeps backups out of a backup/ that is a link to an outside folder, and undo still works", async () => {
    const s = await setup({}, [EDIT, "```python\nprint('s2')\n```"]);
    fs.rmSync(path.join(s.ws, "backup"), { recursive: true });
    fs.symlinkSync(path.join(s.outside, "dir"), path.join(s.ws, "backup"));
    fs.writeFileSync(path.join(s.ws, "sub", "s.py"), "print('s1')\n");
    const obs = await s.env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "v2", save_name: "train.py" });
    expect(obs).toBe(
      "The edited file is saved to train.py. Here is the diff, please check if the edit is correct and desirable:\n\n--- \n+++ \n@@ -1 +1 @@\n-print('hello')\n+print('v2')",
    );
    expect(await s.env.step("Edit Script (AI)", { script_name: "sub/s.py", edit_instruction: "s2", save_name: "sub/s.py" })).toMatch(/^The edited file is saved to sub\/s.py/);
    expect(fs.readdirSync(path.join(s.outside, "dir"))).toEqual([]);
    expect(filesUnder(path.join(s.traceDir, "backup")).map((f) => path.relative(path.join(s.traceDir, "backup"), f)).sort()).toEqual([
      expect.stringMatching(/^sub\/s\.py_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d{6}$/),
      expect.stringMatching(/^train\.py_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d{6}$/),
    ]);
    expect(await s.env.step("Undo Edit Script", { script_name: "train.py" })).toBe(`Content of train.py after undo the most recent edit:\n${TRAIN}`);
    expect(await s.env.step("Undo Edit Script", { script_name: "sub/s.py" })).toBe("Content of sub/s.py after undo the most recent edit:\nprint('s1')\n");
    expect(fs.readFileSync(path.join(s.ws, "train.py"), "utf8")).toBe(TRAIN);
    expect(await s.env.step("Undo Edit Script", { script_name: "train.py" })).toBe("EnvError: There is no change to undo.");
    expect(fs.readlinkSync(path.join(s.ws, "backup"))).toBe(path.join(s.outside, "dir"));
    assertUntouched(s);
  });

  it("keeps backups when backup/ is a file or backup/sub is a link, and mirrors them into a real backup/", async () => {
    const s = await setup({}, [EDIT, "```python\nprint('s2')\n```", EDIT]);
    fs.symlinkSync(path.join(s.outside, "dir"), path.join(s.ws, "backup", "sub"));
    fs.writeFileSync(path.join(s.ws, "sub", "s.py"), "print('s1')\n");
    await s.env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "v2", save_name: "train.py" });
    // The agent sees its backup in backup/, as upstream has it.
    const mirrored = fs.readdirSync(path.join(s.ws, "backup")).filter((n) => n !== "sub");
    expect(mirrored).toEqual([expect.stringMatching(/^train\.py_/)]);
    expect(fs.readFileSync(path.join(s.ws, "backup", mirrored[0]!), "utf8")).toBe(TRAIN);
    await s.env.step("Edit Script (AI)", { script_name: "sub/s.py", edit_instruction: "s2", save_name: "sub/s.py" });
    expect(fs.readdirSync(path.join(s.outside, "dir"))).toEqual([]);
    expect(await s.env.step("Undo Edit Script", { script_name: "sub/s.py" })).toBe("Content of sub/s.py after undo the most recent edit:\nprint('s1')\n");
    expect(await s.env.step("Undo Edit Script", { script_name: "train.py" })).toBe(`Content of train.py after undo the most recent edit:\n${TRAIN}`);
    // Undo removes the agent-visible copy too.
    expect(fs.readdirSync(path.join(s.ws, "backup"))).toEqual(["sub"]);

    fs.rmSync(path.join(s.ws, "backup"), { recursive: true });
    fs.writeFileSync(path.join(s.ws, "backup"), "not a folder\n");
    await s.env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "v2", save_name: "train.py" });
    expect(fs.readFileSync(path.join(s.ws, "backup"), "utf8")).toBe("not a folder\n");
    expect(await s.env.step("Undo Edit Script", { script_name: "train.py" })).toBe(`Content of train.py after undo the most recent edit:\n${TRAIN}`);
    assertUntouched(s);
  });

  it("an edit saved onto a FIFO fails and leaves nothing to undo", async () => {
    const s = await setup({}, [EDIT]);
    mkfifo(path.join(s.ws, "pipe"));
    expect(await prompt(() => s.env.step("Edit Script (AI)", { script_name: "train.py", edit_instruction: "v2", save_name: "pipe" }))).toBe(
      "EnvError: cannot write file pipe: it is not a regular file",
    );
    expect(await s.env.step("Undo Edit Script", { script_name: "train.py" })).toBe("EnvError: There is no change to undo.");
    expect(fs.readdirSync(path.join(s.ws, "backup"))).toEqual([]);
  });

  it("never appends to a research_log.log that is a link, hard link or FIFO", async () => {
    const s = await setup({}, ["reflected"]);
    const victim = path.join(s.outside, "victim.txt");
    fs.symlinkSync(victim, path.join(s.ws, "research_log.log"));
    expect(await s.env.step("Append Summary to Research Log", { content: "note" })).toBe(outsideMsg("research_log.log"));
    expect(await s.env.step("Reflection", { things_to_reflect_on: "x" })).toBe(outsideMsg("research_log.log"));
    fs.rmSync(path.join(s.ws, "research_log.log"));
    mkfifo(path.join(s.ws, "research_log.log"));
    expect(await prompt(() => s.env.step("Append Summary to Research Log", { content: "note" }))).toBe(
      "EnvError: cannot append file research_log.log: it is not a regular file",
    );
    expect(await prompt(() => s.env.step("Reflection", { things_to_reflect_on: "x" }))).toBe("EnvError: cannot read file research_log.log: it is not a regular file");
    fs.rmSync(path.join(s.ws, "research_log.log"));
    fs.linkSync(victim, path.join(s.ws, "research_log.log"));
    expect(await s.env.step("Append Summary to Research Log", { content: "note" })).toBe("Successfully appended to research log");
    expect(fs.readFileSync(path.join(s.ws, "research_log.log"), "utf8")).toBe(VICTIM + "note\n");
    expect(s.llm.prompts).toHaveLength(0);
    assertUntouched(s);
  });
});

describe("snapshots of a hostile workspace", () => {
  it("completes a step over a FIFO, a 60-level tree, long names and a link to /, and says what it left out", async () => {
    const s = await setup();
    mkfifo(path.join(s.ws, "pipe"));
    fs.symlinkSync("/", path.join(s.ws, "root"));
    fs.symlinkSync(path.join(s.outside, "secret.txt"), path.join(s.ws, "secret"));
    const deep = Array.from({ length: 60 }, () => "d");
    fs.mkdirSync(path.join(s.ws, ...deep), { recursive: true });
    fs.writeFileSync(path.join(s.ws, ...deep, "bottom.txt"), "deep\n");
    fs.writeFileSync(path.join(s.ws, "d", "top.txt"), "shallow\n");
    const longName = "n".repeat(250);
    fs.writeFileSync(path.join(s.ws, longName), "long name\n");
    fs.writeFileSync(path.join(s.ws, "new\nline.txt"), "odd name\n");
    // Folders of 250-byte names nested past 4000 path bytes (made from inside, as no single path may be that long).
    const seg = "L".repeat(250);
    execFileSync(PY, ["-c", "import os,sys\nos.chdir(sys.argv[1])\nfor _ in range(18):\n  os.mkdir(sys.argv[2]); os.chdir(sys.argv[2])\nopen('f.txt','w').write('far')", s.ws, seg]);
    execFileSync(PY, ["-c", "import sys\nopen(sys.argv[1].encode() + b'/bad\\xff', 'w').write('x')", s.ws]);
    let k = 1;
    while (Buffer.byteLength(path.join(s.ws, ...Array(k).fill(seg))) <= 4000) k++;
    try {
      const obs = await prompt(() => s.env.step("List Files", { dir_path: "." }), 20_000);
      expect(obs).toBe(`${"L".repeat(250)}/\nbackup/\nbad\uFFFD\nd/\nnew\\nline.txt\n${longName}\npipe|\nroot@\nsecret@\nsub/\ntrain.py\n`);
      const files = s.env.trace()[0]!.files;
      expect(files.changed).toEqual(["d/top.txt", "new\nline.txt", longName, "train.py"]);
      expect(files.tooLarge).toEqual([]);
      expect(files.skipped).toEqual(
        expect.arrayContaining([
          { path: Array(k).fill(seg).join("/"), reason: "path too long" },
          { path: "bad\uFFFD", reason: "unreadable" },
          { path: Array(33).fill("d").join("/"), reason: "too deep" },
          { path: "pipe", reason: "not a regular file" },
          { path: "root", reason: "symbolic link" },
          { path: "secret", reason: "symbolic link" },
        ]),
      );
      expect(files.skipped).toHaveLength(6);
      expect(fs.readFileSync(path.join(s.traceDir, "snapshots", "0", longName), "utf8")).toBe("long name\n");
      expect(fs.readdirSync(path.join(s.traceDir, "snapshots", "0")).sort()).toEqual(["d", longName, "new\nline.txt", "train.py"].sort());

      // The next step lists nothing again, and a deep file that was never seen is not reported deleted.
      await s.env.step("Write File", { file_name: "d/top.txt", content: "changed" });
      expect(lastFiles(s.env)).toEqual({ changed: ["d/top.txt"], deleted: [], tooLarge: [] });
      fs.rmSync(path.join(s.ws, "pipe"));
      fs.writeFileSync(path.join(s.ws, "pipe"), "now a file\n");
      await s.env.step("List Files", { dir_path: "sub" });
      expect(lastFiles(s.env)).toEqual({ changed: ["pipe"], deleted: [], tooLarge: [] });
      // Evaluation still reads the trace.
      const trace = readTrace(s.runDir);
      expect(trace.steps).toHaveLength(3);
      expect(trace.steps[0]!.files.changed).toEqual(files.changed);
      assertUntouched(s);
    } finally {
      // Removing the long-path tree needs descriptor-relative calls.
      execFileSync(PY, ["-c", "import shutil,sys\nshutil.rmtree(sys.argv[1])", path.join(s.ws, seg)]);
    }
  });

  it("lists at most 10,000 entries of a folder, then how many more there are", async () => {
    const s = await setup();
    const many = path.join(s.ws, "many");
    fs.mkdirSync(many);
    for (let i = 0; i < 10_005; i++) fs.writeFileSync(path.join(many, `f${String(i).padStart(5, "0")}`), "");
    const obs = await s.env.step("List Files", { dir_path: "many" });
    const lines = obs.split("\n");
    expect(lines).toHaveLength(10_002);
    expect(lines[0]).toBe("f00000");
    expect(lines[9_999]).toBe("f09999");
    expect(lines[10_000]).toBe("[5 more entries not shown]");
  });

  it("walks within its entry bound and knows which paths it did not reach", () => {
    const root = tempDir("mlab-walk-");
    for (const n of ["a", "b", "c"]) {
      fs.mkdirSync(path.join(root, n));
      for (const m of ["1", "2", "3"]) fs.writeFileSync(path.join(root, n, m), m);
    }
    const walk = walkWorkspace(root, (rel) => rel === "b", { maxDepth: 5, maxEntries: 6, maxPathBytes: 4000 });
    expect(walk.files.map((f) => f.rel)).toEqual(["a/1", "a/2", "a/3", "c/1"]);
    expect(walk.skipped).toEqual([{ rel: "c/2", why: "too many entries" }]);
    expect(walk.cut).toEqual(["c", "2"]);
    expect(walkedBefore(["c", "1"], walk.cut)).toBe(true);
    expect(walkedBefore(["c", "2"], walk.cut)).toBe(false);
    expect(walkedBefore(["c", "3"], walk.cut)).toBe(false);
    expect(walkedBefore(["b", "9"], walk.cut)).toBe(true);
    expect(walkedBefore(["d"], walk.cut)).toBe(false);
  });
});

describe("owner", () => {
  it("gives what the file actions create to the given uid and gid", async () => {
    const owner = { uid: 65534, gid: 65534 };
    const s = await setup({ owner }, ["```python\nprint('v2')\n```"]);
    const own = (rel: string) => {
      const st = fs.lstatSync(path.join(s.ws, rel));
      return { uid: st.uid, gid: st.gid };
    };
    expect(own("backup")).toEqual(owner);
    expect(await s.env.step("Write File", { file_name: "new.txt", content: "x" })).toBe("File new.txt written successfully.");
    expect(own("new.txt")).toEqual(owner);
    await s.env.step("Append File", { file_name: "sub/app.txt", content: "y" });
    expect(own("sub/app.txt")).toEqual(owner);
    await s.env.step("Copy File", { source: "new.txt", destination: "copy.txt" });
    expect(own("copy.txt")).toEqual(owner);
    await s.env.step("Append Summary to Research Log", { content: "note" });
    expect(own("research_log.log")).toEqual(owner);
    expect(own("train.py")).toEqual({ uid: 0, gid: 0 });
    await s.env.step("Edit Script (AI)", { script_name: "sub/new.py", edit_instruction: "v2", save_name: "train.py" });
    expect(own("train.py")).toEqual(owner);
    expect(own("sub/new.py")).toEqual(owner);
    expect(own("backup/sub")).toEqual(owner);
    const [copy] = fs.readdirSync(path.join(s.ws, "backup", "sub"));
    expect(own(`backup/sub/${copy}`)).toEqual(owner);
    await s.env.step("Undo Edit Script", { script_name: "sub/new.py" });
    expect(own("sub/new.py")).toEqual(owner);
  });

  it("without the option, rewriting a file keeps its owner", async () => {
    const s = await setup();
    fs.chownSync(path.join(s.ws, "train.py"), 65534, 65534);
    await s.env.step("Write File", { file_name: "train.py", content: "print(3)\n" });
    expect(fs.lstatSync(path.join(s.ws, "train.py")).uid).toBe(65534);
    await s.env.step("Write File", { file_name: "fresh.txt", content: "x" });
    expect(fs.lstatSync(path.join(s.ws, "fresh.txt")).uid).toBe(process.getuid!());
  });
});
