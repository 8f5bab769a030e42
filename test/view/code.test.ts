import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { codeVersions, diffCode, finalCodeRef, MAX_CODE_BYTES, previousRef, readCode } from "../../src/view/code.js";
import { tempDir } from "../helpers/data-dir.js";

const NODE0 = "import pandas as pd\nimport numpy as np\n\ndef main():\n    df = pd.read_csv('train.csv')\n    print(df.shape)\n\nmain()\n";
const NODE1 = NODE0.replace("import numpy as np\n", "import numpy as np\nimport lightgbm as lgbm\n").replace("print(df.shape)", "print(df.shap)");
const NODE2 = NODE0.replace("import numpy as np\n", "import numpy as np\nimport lightgbm as lgb\n").replace("print(df.shape)", "print(df.describe())");
const MAIN = "print('hello')\n";
const HELPERS = "def helper():\n    return 1\n";
const TRAIN1 = Array.from({ length: 12 }, (_, i) => `L${i + 1}\n`).join("");
const TRAIN3 = TRAIN1.replace("L10\n", "X\n");
const TRAIN_FINAL = TRAIN3 + "L13\n";
const PLAN = "1. baseline\n";
const CSV = "a,b\n1,2\n";

function write(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}

function node(id: number, parentId: number | null, stage: string, code: string, metric: number | null, isBug: boolean) {
  return {
    id, parentId, stage, plan: `plan ${id}`, code, createdAt: "2026-01-01T00:00:00.000Z", termOut: "", execTimeS: 1,
    exitCode: isBug ? 1 : 0, timedOut: false, hasSubmission: !isBug, analysis: "", metric, isBug,
  };
}

function journal(nodes: unknown[]): string {
  return JSON.stringify({ lowerIsBetter: false, bestId: 2, nodes });
}

let root: string;
let mle: string;
let research: string;
let outside: string;

beforeAll(() => {
  root = tempDir("view-code-");
  outside = path.join(root, "outside");
  write(path.join(outside, "x.py"), "import secrets\n");

  mle = path.join(root, "group", "run-a");
  write(path.join(mle, "logs", "journal.json"), journal([node(0, null, "draft", NODE0, 0.75, false), node(1, 0, "improve", NODE1, null, true), node(2, 1, "debug", NODE2, 0.8123456789, false)]));
  write(path.join(mle, "logs", "best_solution.py"), NODE2);
  write(path.join(mle, "code", "main.py"), MAIN);
  write(path.join(mle, "code", "utils", "helpers.py"), HELPERS);
  write(path.join(mle, "code", "data.bin"), Buffer.from([0x50, 0x4b, 0x00, 0x01]));
  write(path.join(mle, "code", "big.py"), Buffer.alloc(MAX_CODE_BYTES + 1, "#"));
  write(path.join(mle, "code", "__pycache__", "main.cpython-311.pyc"), "cached");
  fs.symlinkSync("/etc/passwd", path.join(mle, "code", "link.py"));

  research = path.join(root, "group", "res-run");
  const steps = [
    { step: 0, action: { name: "List Files", args: {} }, observation: "train.py", started: 1, timestamp: 2, files: { changed: [], deleted: [], tooLarge: [] } },
    { step: 1, action: { name: "Edit Script (AI)", args: {} }, observation: "ok", started: 3, timestamp: 4, files: { changed: ["train.py", "notes/plan.txt"], deleted: [], tooLarge: [] } },
    { step: 2, action: { name: "Execute Script", args: {} }, observation: "ok", started: 5, timestamp: 6, files: { changed: ["submission.csv"], deleted: [], tooLarge: [] } },
    { step: 3, action: { name: "Edit Script (AI)", args: {} }, observation: "ok", started: 7, timestamp: 8, files: { changed: ["train.py", "../escape.py", "evil.py"], deleted: [], tooLarge: [] } },
  ];
  write(path.join(research, "trace", "trace.json"), JSON.stringify({ steps }));
  write(path.join(research, "trace", "snapshots", "1", "train.py"), TRAIN1);
  write(path.join(research, "trace", "snapshots", "1", "notes", "plan.txt"), PLAN);
  write(path.join(research, "trace", "snapshots", "3", "train.py"), TRAIN3);
  write(path.join(research, "trace", "escape.py"), "outside the snapshots\n");
  fs.symlinkSync("/etc/passwd", path.join(research, "trace", "snapshots", "3", "evil.py"));
  write(path.join(research, "workspace", "train.py"), TRAIN_FINAL);
  write(path.join(research, "workspace", "data", "train.csv"), CSV);
});

describe("codeVersions", () => {
  it("lists an MLE-bench run's journal nodes, best solution and code files; links, __pycache__ and oversized files are left out", () => {
    expect(codeVersions(mle, "mle")).toEqual([
      { ref: "aide/0", label: "node 0 (draft), metric 0.75", bytes: Buffer.byteLength(NODE0) },
      { ref: "aide/1", label: "node 1 (improve of 0), buggy", bytes: Buffer.byteLength(NODE1) },
      { ref: "aide/2", label: "node 2 (debug of 1), metric 0.812346, best", bytes: Buffer.byteLength(NODE2) },
      { ref: "logs/best_solution.py", label: "best solution (logs/best_solution.py)", bytes: Buffer.byteLength(NODE2) },
      { ref: "code/data.bin", label: "code/data.bin", bytes: 4 },
      { ref: "code/main.py", label: "code/main.py", bytes: 15 },
      { ref: "code/utils/helpers.py", label: "code/utils/helpers.py", bytes: 27 },
    ]);
  });

  it("lists a research run's snapshots step by step, then its final workspace; missing, linked and escaping snapshots are left out", () => {
    expect(codeVersions(research, "research")).toEqual([
      { ref: "step/1/train.py", label: "train.py after step 1 (Edit Script (AI))", bytes: Buffer.byteLength(TRAIN1) },
      { ref: "step/1/notes/plan.txt", label: "notes/plan.txt after step 1 (Edit Script (AI))", bytes: 12 },
      { ref: "step/3/train.py", label: "train.py after step 3 (Edit Script (AI))", bytes: Buffer.byteLength(TRAIN3) },
      { ref: "workspace/data/train.csv", label: "data/train.csv (final workspace)", bytes: 8 },
      { ref: "workspace/train.py", label: "train.py (final workspace)", bytes: Buffer.byteLength(TRAIN_FINAL) },
    ]);
  });

  it("lists nothing from a code/ folder that is a symbolic link", () => {
    const run = path.join(root, "group", "run-linkdir");
    fs.mkdirSync(run, { recursive: true });
    fs.symlinkSync(outside, path.join(run, "code"));
    expect(codeVersions(run, "mle")).toEqual([]);
    expect(readCode(run, "mle", "code/x.py")).toEqual({ error: "code/x.py: no such code version in this run" });
    // Even a listing forged to hold it does not get the file read through the link.
    expect(readCode(run, "mle", "code/x.py", [{ ref: "code/x.py", label: "x", bytes: 15 }])).toEqual({ error: "code/x.py: a symbolic link, not followed" });
    expect(finalCodeRef(run, "mle")).toBeNull();
  });

  it("treats a malformed journal as no journal, and reads it again once it changes", () => {
    const run = path.join(root, "group", "run-journal");
    const file = path.join(run, "logs", "journal.json");
    write(file, "{ not json");
    expect(codeVersions(run, "mle")).toEqual([]);
    write(file, journal([node(0, null, "draft", "a = 1\n", null, false)]));
    expect(codeVersions(run, "mle")).toEqual([{ ref: "aide/0", label: "node 0 (draft), no metric", bytes: 6 }]);
    // One node without its code makes the whole journal unusable rather than half read.
    write(file, journal([node(0, null, "draft", "a = 1\n", null, false), { id: 1, parentId: 0, stage: "improve" }]));
    expect(codeVersions(run, "mle")).toEqual([]);
    write(file, JSON.stringify({ nodes: "many" }));
    expect(codeVersions(run, "mle")).toEqual([]);
  });
});

describe("readCode", () => {
  it("reads journal nodes and files", () => {
    expect(readCode(mle, "mle", "aide/1")).toEqual({ ref: "aide/1", text: NODE1 });
    expect(readCode(mle, "mle", "logs/best_solution.py")).toEqual({ ref: "logs/best_solution.py", text: NODE2 });
    expect(readCode(mle, "mle", "code/utils/helpers.py")).toEqual({ ref: "code/utils/helpers.py", text: HELPERS });
    expect(readCode(research, "research", "step/1/notes/plan.txt")).toEqual({ ref: "step/1/notes/plan.txt", text: PLAN });
    expect(readCode(research, "research", "workspace/train.py")).toEqual({ ref: "workspace/train.py", text: TRAIN_FINAL });
  });

  it("refuses refs that are malformed or could leave the run folder", () => {
    for (const ref of ["../run-linkdir/code/x.py", "code/../../outside/x.py", "/etc/passwd", "code/a\0b.py", "aide/01", "aide/x", "step/1/../escape.py", "code/./main.py", "code//main.py", "", "logs/journal.json"]) {
      expect(readCode(mle, "mle", ref)).toEqual({ error: `not a code version ref: ${JSON.stringify(ref)}` });
    }
  });

  it("refuses refs the run does not list: another kind's, a missing node, a link, an oversized file, an escaping snapshot", () => {
    expect(readCode(mle, "mle", "aide/3")).toEqual({ error: "aide/3: no such code version in this run" });
    expect(readCode(mle, "mle", "workspace/train.py")).toEqual({ error: "workspace/train.py: no such code version in this run" });
    expect(readCode(mle, "mle", "code/link.py")).toEqual({ error: "code/link.py: no such code version in this run" });
    expect(readCode(mle, "mle", "code/link.py", [{ ref: "code/link.py", label: "", bytes: 0 }])).toEqual({ error: "code/link.py: a symbolic link, not followed" });
    expect(readCode(mle, "mle", "code/big.py")).toEqual({ error: "code/big.py: no such code version in this run" });
    expect(readCode(mle, "mle", "code/big.py", [{ ref: "code/big.py", label: "", bytes: 0 }])).toEqual({ error: `code/big.py is larger than ${MAX_CODE_BYTES} bytes, not shown` });
    expect(readCode(research, "research", "step/3/evil.py")).toEqual({ error: "step/3/evil.py: no such code version in this run" });
    expect(readCode(research, "research", "step/2/submission.csv")).toEqual({ error: "step/2/submission.csv: no such code version in this run" });
  });

  it("refuses binary files", () => {
    expect(readCode(mle, "mle", "code/data.bin")).toEqual({ error: "code/data.bin is a binary file (it has a NUL byte), not shown" });
  });
});

describe("finalCodeRef and previousRef", () => {
  it("chooses the best solution, a usual entry point, the first .py or train.py", () => {
    expect(finalCodeRef(mle, "mle")).toBe("logs/best_solution.py");
    expect(finalCodeRef(research, "research")).toBe("workspace/train.py");
    const runs: [string[], string | null][] = [
      [["b.py", "a/c.py", "notes.txt"], "code/a/c.py"],
      [["a.py", "lib/main.py", "z/train.py"], "code/lib/main.py"],
      [["sub/main.py", "solution.py", "a.py"], "code/solution.py"],
      [["train.py", "main.py"], "code/main.py"],
      [["readme.md"], null],
    ];
    runs.forEach(([files, expected], i) => {
      const run = path.join(root, "finals", `run-${i}`);
      for (const f of files) write(path.join(run, "code", f), "x = 1\n");
      expect(finalCodeRef(run, "mle")).toBe(expected);
    });
    const res = path.join(root, "finals", "res");
    for (const f of ["z.py", "a.txt", "m.py"]) write(path.join(res, "workspace", f), "x = 1\n");
    expect(finalCodeRef(res, "research")).toBe("workspace/m.py");
    expect(finalCodeRef(path.join(root, "finals", "empty"), "research")).toBeNull();
  });

  it("follows a node to its parent and a snapshot to the same file's previous one", () => {
    expect(previousRef(mle, "mle", "aide/2")).toBe("aide/1");
    expect(previousRef(mle, "mle", "aide/1")).toBe("aide/0");
    expect(previousRef(mle, "mle", "aide/0")).toBeNull();
    expect(previousRef(mle, "mle", "aide/7")).toBeNull();
    expect(previousRef(mle, "mle", "code/main.py")).toBeNull();
    expect(previousRef(research, "research", "step/3/train.py")).toBe("step/1/train.py");
    expect(previousRef(research, "research", "step/1/train.py")).toBeNull();
    expect(previousRef(research, "research", "step/3/notes/plan.txt")).toBe("step/1/notes/plan.txt");
    expect(previousRef(research, "research", "workspace/train.py")).toBeNull();
    expect(previousRef(research, "research", "step/3/../../x")).toBeNull();
  });
});

describe("diffCode", () => {
  it("diffs two journal nodes", () => {
    expect(diffCode({ runDir: mle, kind: "mle", ref: "aide/0" }, { runDir: mle, kind: "mle", ref: "aide/2" })).toEqual({
      a: "aide/0",
      b: "aide/2",
      diff:
        "--- \n+++ \n@@ -1,8 +1,9 @@\n import pandas as pd\n import numpy as np\n+import lightgbm as lgb\n \n def main():\n" +
        "     df = pd.read_csv('train.csv')\n-    print(df.shape)\n+    print(df.describe())\n \n main()\n",
      added: 2,
      removed: 1,
      capped: null,
    });
  });

  it("numbers hunks from the files' start when the common head is left out of the alignment", () => {
    expect(diffCode({ runDir: research, kind: "research", ref: "step/1/train.py" }, { runDir: research, kind: "research", ref: "step/3/train.py" })).toEqual({
      a: "step/1/train.py",
      b: "step/3/train.py",
      diff: "--- \n+++ \n@@ -7,6 +7,6 @@\n L7\n L8\n L9\n-L10\n+X\n L11\n L12\n",
      added: 1,
      removed: 1,
      capped: null,
    });
    expect(diffCode({ runDir: research, kind: "research", ref: "step/3/train.py" }, { runDir: research, kind: "research", ref: "workspace/train.py" })).toEqual({
      a: "step/3/train.py",
      b: "workspace/train.py",
      diff: "--- \n+++ \n@@ -10,3 +10,4 @@\n X\n L11\n L12\n+L13\n",
      added: 1,
      removed: 0,
      capped: null,
    });
  });

  it("diffs versions of two different runs, and identical versions to nothing", () => {
    const r = diffCode({ runDir: mle, kind: "mle", ref: "logs/best_solution.py" }, { runDir: mle, kind: "mle", ref: "aide/2" });
    expect(r).toEqual({ a: "logs/best_solution.py", b: "aide/2", diff: "", added: 0, removed: 0, capped: null });
    const cross = diffCode({ runDir: mle, kind: "mle", ref: "code/main.py" }, { runDir: research, kind: "research", ref: "step/1/notes/plan.txt" });
    expect(cross).toEqual({ a: "code/main.py", b: "step/1/notes/plan.txt", diff: "--- \n+++ \n@@ -1 +1 @@\n-print('hello')\n+1. baseline\n", added: 1, removed: 1, capped: null });
  });

  it("marks a last line without a newline on a line of its own", () => {
    const run = path.join(root, "group", "run-nl");
    write(path.join(run, "code", "a.py"), "x\ny");
    write(path.join(run, "code", "b.py"), "x\nz\n");
    expect(diffCode({ runDir: run, kind: "mle", ref: "code/a.py" }, { runDir: run, kind: "mle", ref: "code/b.py" })).toEqual({
      a: "code/a.py",
      b: "code/b.py",
      diff: "--- \n+++ \n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n",
      added: 1,
      removed: 1,
      capped: null,
    });
  });

  it("aligns at most 5000 differing lines of each side and says so", () => {
    const run = path.join(root, "group", "run-big");
    write(path.join(run, "code", "a.py"), "same\n" + Array.from({ length: 6000 }, (_, i) => `a${i}\n`).join(""));
    write(path.join(run, "code", "b.py"), "same\n" + Array.from({ length: 5500 }, (_, i) => `b${i}\n`).join(""));
    const r = diffCode({ runDir: run, kind: "mle", ref: "code/a.py" }, { runDir: run, kind: "mle", ref: "code/b.py" });
    if ("error" in r) throw new Error(r.error);
    expect(r.capped).toBe("code/a.py: 6000 lines differ from line 2 on; only the first 5000 of them compared; code/b.py: 5500 lines differ from line 2 on; only the first 5000 of them compared");
    expect([r.added, r.removed]).toEqual([5000, 5000]);
    expect(r.diff.slice(0, 42)).toBe("--- \n+++ \n@@ -1,5001 +1,5001 @@\n same\n-a0\n");
  });

  it("passes on the error of a side that cannot be read", () => {
    expect(diffCode({ runDir: mle, kind: "mle", ref: "aide/0" }, { runDir: mle, kind: "mle", ref: "code/data.bin" })).toEqual({ error: "code/data.bin is a binary file (it has a NUL byte), not shown" });
    expect(diffCode({ runDir: mle, kind: "mle", ref: "../x" }, { runDir: mle, kind: "mle", ref: "aide/0" })).toEqual({ error: 'not a code version ref: "../x"' });
  });
});
