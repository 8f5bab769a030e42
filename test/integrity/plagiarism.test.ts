import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import type { KaggleAuth } from "../../src/sources/kaggle/credentials.js";
import { KaggleError } from "../../src/sources/kaggle/client.js";
import type { RunDir } from "../../src/integrity/types.js";
import {
  checkPlagiarism,
  comparePlagiarism,
  dolosLanguageOf,
  downloadKernels,
  kernelFileFromPull,
  notebookToScript,
  parseKernelRefs,
  runCodeFiles,
} from "../../src/integrity/plagiarism/index.js";
import { sendJson, startFakeServer, type FakeServer } from "../helpers/fake-kaggle.js";

const FIX = fileURLToPath(new URL("../fixtures/integrity/plagiarism/", import.meta.url));
const fix = (name: string) => path.join(FIX, name);
const AUTH: KaggleAuth = { kind: "basic", username: "alice", key: "k3y-SECRET-42", source: "test" };

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-plagiarism-"));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function makeDir(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const read = (name: string) => fs.readFileSync(fix(name), "utf8");

describe("comparePlagiarism", () => {
  it("scores a renamed, reformatted copy near 1 and an unrelated script near 0", async () => {
    const result = await comparePlagiarism({
      submissionFiles: [fix("renamed.py"), fix("unrelated.py")],
      referenceFiles: [fix("reference.py")],
      submissionRoot: FIX,
      referenceRoot: FIX,
    });
    expect(result.pairsCompared).toBe(2);
    expect(result.pairs.map((p) => [p.submission, p.reference])).toEqual([
      ["renamed.py", "reference.py"],
      ["unrelated.py", "reference.py"],
    ]);
    const [copy, other] = result.pairs;
    expect(copy!.similarity).toBeCloseTo(0.984, 2);
    expect(copy!.similarity).toBeGreaterThanOrEqual(0.9);
    expect(other!.similarity).toBeLessThan(0.1);
    expect(result.bestSimilarity).toBe(copy!.similarity);
    expect(result.threshold).toBe(0.6);
    expect(result.flagged).toBe(true);
    // The whole feature-engineering function and the rest of the script are one shared stretch.
    expect(copy!.longestFragment).toBe(168);
    expect(copy!.fragments[0]).toEqual({ kgrams: 168, submissionLines: [12, 45], referenceLines: [11, 50] });
    expect(copy!.fragments.length).toBeLessThanOrEqual(3);
    expect(result.languages).toEqual([{ language: "python", submission: 2, reference: 1 }]);
    expect(result.skipped).toEqual([]);
    // Plain data: survives a JSON round trip unchanged.
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("flags only when the best pair reaches the threshold", async () => {
    const base = { submissionFiles: [fix("unrelated.py")], referenceFiles: [fix("reference.py")] };
    const low = await comparePlagiarism({ ...base, threshold: 0.6 });
    expect(low.flagged).toBe(false);
    expect(low.bestSimilarity).toBeLessThan(0.1);
    const copy = await comparePlagiarism({ submissionFiles: [fix("renamed.py")], referenceFiles: [fix("reference.py")], threshold: 0.99 });
    expect(copy.flagged).toBe(false);
    const atSix = await comparePlagiarism({ submissionFiles: [fix("renamed.py")], referenceFiles: [fix("reference.py")], threshold: 0.6 });
    expect(atSix.flagged).toBe(true);
  });

  it("keeps only the top pairs, and never pairs two submission files", async () => {
    const refs = makeDir("refs-top", { "a.py": read("reference.py"), "b.py": read("unrelated.py"), "c.py": read("renamed.py") });
    const result = await comparePlagiarism({
      submissionFiles: [fix("renamed.py"), fix("reference.py")],
      referenceFiles: ["a.py", "b.py", "c.py"].map((f) => path.join(refs, f)),
      top: 2,
    });
    expect(result.pairsCompared).toBe(6);
    expect(result.pairs).toHaveLength(2);
    // Identical files are fully similar; the reported paths are relative to each side's common folder.
    expect(result.pairs.map((p) => [p.submission, p.reference, p.similarity])).toEqual([
      ["reference.py", "a.py", 1],
      ["renamed.py", "c.py", 1],
    ]);
  });

  it("skips files Dolos has no parser for, binaries and files over 1 MB", async () => {
    const dir = makeDir("skips", {
      "notes.txt": "just words",
      "data.csv": "a,b\n1,2\n",
      "big.py": `x = 1\n${"# padding\n".repeat(110_000)}`,
      "blob.py": "abc\u0000def",
      "broken.ipynb": "{not json",
    });
    const result = await comparePlagiarism({
      submissionFiles: ["notes.txt", "data.csv", "big.py", "blob.py", "broken.ipynb"].map((f) => path.join(dir, f)).concat(fix("renamed.py")),
      referenceFiles: [fix("reference.py")],
      submissionRoot: dir,
    });
    const reasons = Object.fromEntries(result.skipped.map((s) => [s.file, s.reason]));
    expect(Object.keys(reasons).sort()).toEqual(["big.py", "blob.py", "broken.ipynb", "data.csv", "notes.txt"]);
    expect(reasons["notes.txt"]).toBe('no Dolos parser for ".txt" files');
    expect(reasons["big.py"]).toMatch(/^larger than 1048576 bytes \(1100006\)/);
    expect(reasons["blob.py"]).toBe("binary content");
    expect(reasons["broken.ipynb"]).toMatch(/^broken\.ipynb: not a Jupyter notebook: invalid JSON/);
    expect(result.skipped.every((s) => s.side === "submission")).toBe(true);
    expect(result.pairs).toHaveLength(1);
    expect(result.pairs[0]!.submission).toBe(path.relative(dir, fix("renamed.py")));
  });

  it("leaves out a file the tokenizer cannot handle and still compares the rest", async () => {
    // Nesting this deep exhausts the stack of Dolos's recursive tree walk.
    const dir = makeDir("deep", { "deep.py": `x = ${"[".repeat(20_000)}${"]".repeat(20_000)}\n` });
    const result = await comparePlagiarism({
      submissionFiles: [path.join(dir, "deep.py"), fix("renamed.py")],
      referenceFiles: [fix("reference.py")],
      submissionRoot: tmp,
    });
    expect(result.skipped).toEqual([
      { file: "deep/deep.py", side: "submission", reason: "Dolos could not parse it as python: Maximum call stack size exceeded" },
    ]);
    expect(result.languages).toEqual([{ language: "python", submission: 1, reference: 1 }]);
    expect(result.pairs[0]!.similarity).toBeCloseTo(0.984, 2);
  });

  it("compares nothing, and flags nothing, when the languages do not meet", async () => {
    const result = await comparePlagiarism({ submissionFiles: [fix("copied.js")], referenceFiles: [fix("reference.py")] });
    expect(result).toMatchObject({ flagged: false, bestSimilarity: 0, pairsCompared: 0, pairs: [] });
    expect(result.languages).toEqual([
      { language: "javascript", submission: 1, reference: 0 },
      { language: "python", submission: 0, reference: 1 },
    ]);
  });

  it("rejects a threshold outside [0, 1] and a top below 1", async () => {
    const files = { submissionFiles: [fix("renamed.py")], referenceFiles: [fix("reference.py")] };
    await expect(comparePlagiarism({ ...files, threshold: 60 })).rejects.toThrow(/Invalid plagiarism threshold 60: expected a number from 0 to 1/);
    await expect(comparePlagiarism({ ...files, top: 0 })).rejects.toThrow(UserError);
  });
});

describe("languages and notebooks", () => {
  it("picks the Dolos language by extension, case-insensitively", () => {
    expect(dolosLanguageOf("a/b/model.py")).toBe("python");
    expect(dolosLanguageOf("train.R")).toBe("r");
    expect(dolosLanguageOf("main.js")).toBe("javascript");
    expect(dolosLanguageOf("x.ts")).toBe("typescript");
    expect(dolosLanguageOf("README.md")).toBeNull();
    expect(dolosLanguageOf("Makefile")).toBeNull();
  });

  it("extracts a notebook's code cells, commenting out magics and shell lines", () => {
    const nb = notebookToScript(read("notebook.ipynb"));
    expect(nb.language).toBe("python");
    expect(nb.code).toBe(
      [
        "# %matplotlib inline",
        "import pandas as pd",
        'df = pd.read_csv("train.csv")',
        "",
        "# !pip install lightgbm",
        "print(len(df))",
        "",
        "def survival_rate(frame):",
        '    return frame["Survived"].mean()',
        "",
      ].join("\n"),
    );
  });

  it("names the file and cell of a malformed notebook", () => {
    expect(() => notebookToScript('{"cells": [{"cell_type": "code", "source": 3}]}', "x.ipynb")).toThrow(
      'x.ipynb: cell 0: expected "source" to be a string or a list of strings',
    );
    expect(() => notebookToScript("[1]", "y.ipynb")).toThrow("y.ipynb: not a Jupyter notebook: expected a JSON object");
  });

  it("compares a notebook by its code cells", async () => {
    const cells = read("reference.py")
      .split("\n\n\n")
      .map((part) => ({ cell_type: "code", source: part, metadata: {}, outputs: [] }));
    const dir = makeDir("nb-ref", { "kernel.ipynb": JSON.stringify({ nbformat: 4, metadata: {}, cells }) });
    const result = await comparePlagiarism({ submissionFiles: [fix("renamed.py")], referenceFiles: [path.join(dir, "kernel.ipynb")] });
    expect(result.pairs[0]!.reference).toBe("kernel.ipynb");
    expect(result.pairs[0]!.similarity).toBeGreaterThan(0.9);
  });
});

describe("checkPlagiarism", () => {
  function makeRun(name: string, files: Record<string, string>): RunDir {
    return { dir: makeDir(name, files), runId: name, competitionId: "spaceship-titanic", agentId: "dummy" };
  }

  it("checks code in two languages against references of both, at any depth", async () => {
    const run = makeRun("run-two-langs", {
      "code/solution.py": read("renamed.py"),
      "code/js/helpers/main.js": read("copied.js"),
      "code/__pycache__/solution.cpython-311.pyc": "\u0000binary",
      "code/README.md": "how to run",
      "logs/best_solution.py": read("unrelated.py"),
      "logs/agent.log": "print('not code')",
    });
    const refs = makeDir("refs-two-langs", { "alice__space.py": read("reference.py"), "bob__prices.js": read("reference.js") });
    expect(runCodeFiles(run.dir).map((f) => path.relative(run.dir, f))).toEqual([
      "code/README.md",
      "code/js/helpers/main.js",
      "code/solution.py",
      "logs/best_solution.py",
    ]);
    const result = await checkPlagiarism(run, { referenceDir: refs, threshold: 0.6, top: 5 });
    const c = result.comparison;
    expect(c.languages).toEqual([
      { language: "javascript", submission: 1, reference: 1 },
      { language: "python", submission: 2, reference: 1 },
    ]);
    expect(c.pairs.map((p) => [p.language, p.submission, p.reference])).toEqual([
      ["javascript", "code/js/helpers/main.js", "bob__prices.js"],
      ["python", "code/solution.py", "alice__space.py"],
      ["python", "logs/best_solution.py", "alice__space.py"],
    ]);
    // Renaming alone leaves JavaScript's token stream untouched, so Dolos sees the copy as identical.
    expect(c.pairs[0]!.similarity).toBe(1);
    expect(c.pairs[0]!.fragments).toEqual([{ kgrams: 69, submissionLines: [1, 37], referenceLines: [1, 36] }]);
    expect(c.pairs[1]!.similarity).toBeCloseTo(0.984, 2);
    expect(c.pairs[2]!.similarity).toBeLessThan(0.1);
    expect(c.skipped).toEqual([{ file: "code/README.md", side: "submission", reason: 'no Dolos parser for ".md" files' }]);
    expect(result.flag.run).toBe("run-two-langs");
    expect(result.flag.check).toBe("plagiarism");
    expect(result.flag.flagged).toBe(true);
    expect(result.flag.reason).toBe("code/js/helpers/main.js vs bob__prices.js are 100.0% similar, at or above the threshold of 60.0%");
    expect(result.flag.evidence[1]).toBe(
      "code/solution.py vs alice__space.py: similarity 0.984; longest shared fragment 168 k-grams, lines 12-45 of code/solution.py ~ lines 11-50 of alice__space.py",
    );
    expect(result.flag.evidence).toHaveLength(3);
    expect(result.submissionFiles).toHaveLength(4);
    expect(result.referenceFileCount).toBe(2);
  });

  it("does not flag a run whose code is its own, nor one without code", async () => {
    const refs = makeDir("refs-clean", { "k.py": read("reference.py") });
    const own = await checkPlagiarism(makeRun("run-own", { "code/main.py": read("unrelated.py") }), { referenceDir: refs });
    expect(own.flag.flagged).toBe(false);
    expect(own.flag.reason).toMatch(/^the most similar pair, code\/main\.py vs k\.py, is 0\.8% similar, below the threshold of 60\.0%$/);
    const none = await checkPlagiarism(makeRun("run-empty", { "run.log": "" }), { referenceDir: refs });
    expect(none.flag).toEqual({ run: "run-empty", check: "plagiarism", flagged: false, reason: "the run left no code (code/ is empty or missing)", evidence: [] });
  });

  it("says how to get references when the folder is missing", async () => {
    const run = makeRun("run-noref", { "code/main.py": "print(1)\n" });
    await expect(checkPlagiarism(run, { referenceDir: path.join(tmp, "nope") })).rejects.toThrow(
      /does not exist\. Download the competition's top kernels first \(they go to <data-dir>\/spaceship-titanic\/kernels\)/,
    );
  });
});

describe("kernels", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => server.reset());

  const notebookSource = JSON.stringify({
    nbformat: 4,
    metadata: { kernelspec: { language: "python" } },
    cells: [
      { cell_type: "markdown", source: "# EDA" },
      { cell_type: "code", source: ["import numpy as np\n", "print(np.pi)"] },
    ],
  });

  function serveKernels(): void {
    server.on("/kernels/pull", (req, res) => {
      const q = new URL(req.url ?? "/", "http://x").searchParams;
      const key = `${q.get("userName")}/${q.get("kernelSlug")}`;
      if (key === "alice/eda") {
        sendJson(res, 200, { metadata: { language: "python", kernelType: "notebook" }, blob: { source: notebookSource, language: "python", kernelType: "notebook" } });
      } else if (key === "bob/rf-script") {
        sendJson(res, 200, { metadata: { language: "r", kernelType: "script" }, blob: { source: "library(randomForest)\n", language: "r", kernelType: "script" } });
      } else if (key === "carol/locked") {
        sendJson(res, 403, { code: 403, message: "Forbidden" });
      } else {
        sendJson(res, 404, { code: 404, message: "Not found" });
      }
    });
  }

  it("parses kernels.txt and names a bad line", () => {
    expect(parseKernelRefs("alice/eda\n\n bob/rf-script \n")).toEqual([
      { owner: "alice", slug: "eda" },
      { owner: "bob", slug: "rf-script" },
    ]);
    expect(() => parseKernelRefs("alice/eda\n../etc/passwd\n", "k.txt")).toThrow(/^k\.txt:2: expected a kernel as "owner\/slug"/);
  });

  it("downloads kernels, converts notebooks, skips a missing one and keeps what is present", async () => {
    serveKernels();
    const dataDir = path.join(tmp, "data-kernels");
    const refs = parseKernelRefs("alice/eda\nbob/rf-script\nghost/gone\ncarol/locked\n");
    const seen: string[] = [];
    const first = await downloadKernels({
      dataDir,
      competitionId: "spaceship-titanic",
      refs,
      auth: AUTH,
      baseUrl: server.origin,
      retries: 0,
      onKernel: (r) => seen.push(`${r.ref}:${r.status}`),
    });
    const dir = path.join(dataDir, "spaceship-titanic", "kernels");
    expect(first.dir).toBe(dir);
    expect(seen).toEqual(["alice/eda:downloaded", "bob/rf-script:downloaded", "ghost/gone:skipped", "carol/locked:skipped"]);
    expect(first.results[2]).toEqual({ ref: "ghost/gone", status: "skipped", reason: "not found on Kaggle (HTTP 404: deleted, renamed or private)" });
    expect(first.results[3]!.reason).toBe("Kaggle refused access (HTTP 403)");
    expect(fs.readdirSync(dir).sort()).toEqual(["alice__eda.py", "bob__rf-script.R"]);
    expect(fs.readFileSync(path.join(dir, "alice__eda.py"), "utf8")).toBe("import numpy as np\nprint(np.pi)\n");
    expect(fs.readFileSync(path.join(dir, "bob__rf-script.R"), "utf8")).toBe("library(randomForest)\n");
    const pulls = server.requestsTo("/kernels/pull");
    expect(pulls.map((r) => r.url)).toContain("/kernels/pull?userName=alice&kernelSlug=eda");
    expect(pulls[0]!.headers.authorization).toBe(`Basic ${Buffer.from("alice:k3y-SECRET-42").toString("base64")}`);

    // A second pass asks Kaggle only for what is still missing, and needs no credentials for the rest.
    server.reset();
    serveKernels();
    const again = await downloadKernels({ dataDir, competitionId: "spaceship-titanic", refs: refs.slice(0, 2), auth: null, baseUrl: server.origin });
    expect(again.results.map((r) => r.status)).toEqual(["present", "present"]);
    expect(server.requests).toHaveLength(0);
  });

  it("needs credentials only when something must be downloaded, and stops on rejected ones", async () => {
    const dataDir = path.join(tmp, "data-nocreds");
    const refs = parseKernelRefs("alice/eda\n");
    await expect(downloadKernels({ dataDir, competitionId: "c", refs, auth: null, baseUrl: server.origin })).rejects.toThrow(/No Kaggle API credentials found/);
    server.on("/kernels/pull", (_req, res) => sendJson(res, 401, { code: 401, message: "Unauthenticated" }));
    const err = await downloadKernels({ dataDir, competitionId: "c", refs, auth: AUTH, baseUrl: server.origin, retries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KaggleError);
    expect((err as KaggleError).kind).toBe("auth");
    expect((err as Error).message).not.toContain("k3y-SECRET-42");
  });

  it("chooses the file from Kaggle's answer", () => {
    expect(kernelFileFromPull({ blob: { source: "x <- 1\n", language: "r", kernelType: "script" } }, "a/b")).toEqual({ ext: ".R", content: "x <- 1\n" });
    expect(kernelFileFromPull({ metadata: { language: "python", kernelType: "notebook" }, blob: { source: notebookSource } }, "a/b")).toEqual({
      ext: ".py",
      content: "import numpy as np\nprint(np.pi)\n",
    });
    expect(() => kernelFileFromPull({ metadata: {} }, "a/b")).toThrow('a/b: Kaggle\'s answer has no "blob.source" text');
  });
});
