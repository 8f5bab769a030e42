import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidSubmissionError, UserError } from "../../src/core/errors.js";
import { readCsv } from "../../src/io/csv-read.js";
import { CIFAR10_DATA, cifar10Task, gradeCifar10 } from "../../src/mlagentbench/tasks/cifar10/index.js";
import { gradeImdb, IMDB_DATA, imdbTask } from "../../src/mlagentbench/tasks/imdb/index.js";
import { gradeOgbnArxiv, OGBN_ARXIV_DATA, ogbnArxivTask } from "../../src/mlagentbench/tasks/ogbn-arxiv/index.js";
import { getTask, taskNames } from "../../src/mlagentbench/tasks/registry.js";
import { hostRunner } from "../../src/mlagentbench/tasks/runner.js";
import type { ResearchTask, TaskContext } from "../../src/mlagentbench/tasks/types.js";
import { fetchFile, fetchUrlDataset, isUrlDataReady, mirrorUrl, READY_MARKER, type UrlDataset } from "../../src/mlagentbench/tasks/url-data.js";
import { URL_TASKS } from "../../src/mlagentbench/tasks/url-tasks.js";
import { BABYLM_DATA, babylmTask } from "../../src/mlagentbench/tasks/babylm/index.js";
import { CLRS_DATA, clrsTask } from "../../src/mlagentbench/tasks/clrs/index.js";
import { LLAMA_INFERENCE_DATA, llamaInferenceTask, measureInference } from "../../src/mlagentbench/tasks/llama-inference/index.js";
import type { RunRequest, TaskRunner } from "../../src/mlagentbench/tasks/types.js";
import { tempDir } from "../helpers/data-dir.js";

const FIXTURES = decodeURIComponent(new URL("../fixtures/mlagentbench/url-tasks/", import.meta.url).pathname);
const GOLDEN = JSON.parse(fs.readFileSync(path.join(FIXTURES, "golden.json"), "utf8")) as Record<string, { test_labels: number[]; accuracy: number; test_nodes?: number[] }>;
const FAST_RETRY = { retries: 3, backoffMs: 5, maxDelayMs: 10, jitter: false };
const HAS_TORCH = (() => {
  try {
    return fs.existsSync("/usr/bin/python3") && fs.readdirSync("/usr/lib/python3/dist-packages").includes("torch");
  } catch {
    return false;
  }
})();

/** A loopback server for the fixture archives: any path is answered with the fixture of the same base name. */
interface Mirror {
  base: string;
  requests: { path: string; range?: string }[];
  close(): Promise<void>;
}

function digest(algorithm: string, file: string): string {
  return createHash(algorithm).update(fs.readFileSync(file)).digest("hex");
}
function md5(file: string): string {
  return createHash("md5").update(fs.readFileSync(file)).digest("hex");
}
function sha256(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

async function startMirror(): Promise<Mirror> {
  const requests: Mirror["requests"] = [];
  let flakyServed = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push({ path: url.pathname, range: req.headers.range });
    const file = path.join(FIXTURES, path.basename(url.pathname));
    if (!fs.existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    const body = fs.readFileSync(file);
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    if (range) {
      const start = Number(range[1]);
      res.writeHead(206, { "content-length": body.length - start, "content-range": `bytes ${start}-${body.length - 1}/${body.length}` });
      res.end(body.subarray(start));
      return;
    }
    res.writeHead(200, { "content-length": body.length });
    // The first answer under /flaky/ stalls halfway, as a dead connection does, until the client gives up on it.
    if (url.pathname.startsWith("/flaky/") && !flakyServed) {
      flakyServed = true;
      res.write(body.subarray(0, body.length >> 1));
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `dataset` with each download's checksum replaced by the fixture's own (the real ones name the real files). */
function withFixtureChecksums(dataset: UrlDataset): UrlDataset {
  return {
    ...dataset,
    downloads: dataset.downloads.map((d) => {
      const file = path.join(FIXTURES, d.file);
      return { ...d, md5: d.md5 ? md5(file) : undefined, sha256: d.sha256 ? sha256(file) : undefined, sha1: d.sha1 ? digest("sha1", file) : undefined };
    }),
  };
}

/** Every file under `dir`, relative to it, sorted. */
function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

function copier(file: string): string {
  return `import shutil\nshutil.copyfile(${JSON.stringify(file)}, "submission.csv")\n`;
}

async function expectInvalid(promise: Promise<unknown> | (() => unknown), pattern: RegExp): Promise<void> {
  const run = typeof promise === "function" ? Promise.resolve().then(promise) : promise;
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidSubmissionError);
  expect((err as Error).message).toMatch(pattern);
}

let mirror: Mirror;
beforeAll(async () => {
  mirror = await startMirror();
});
afterAll(async () => {
  await mirror.close();
});

describe("url-data", () => {
  it("rewrites scheme and host to the mirror and keeps the path", () => {
    expect(mirrorUrl("https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz", "http://127.0.0.1:9/")).toBe("http://127.0.0.1:9/~kriz/cifar-10-python.tar.gz");
    expect(mirrorUrl("https://host/a/b.zip?x=1", undefined)).toBe("https://host/a/b.zip?x=1");
  });

  it("deletes a file whose checksum does not match and names URL, expected and actual digest", async () => {
    const ctx: TaskContext = { dataDir: tempDir("mlab-url-"), mirror: mirror.base };
    const err = await cifar10Task.fetchData!(ctx).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toContain(`${mirror.base}/~kriz/cifar-10-python.tar.gz`);
    expect(message).toContain("c58f30108f718f92721af3b95e74349a");
    expect(message).toContain(md5(path.join(FIXTURES, "cifar-10-python.tar.gz")));
    expect(fs.existsSync(path.join(ctx.dataDir, "raw", "cifar-10-python.tar.gz"))).toBe(false);
    expect(cifar10Task.isReady!(ctx)).toBe(false);
  });

  it("checks the size when no checksum is published", async () => {
    const raw = tempDir("mlab-url-raw-");
    const spec = { url: "https://example.org/x/arxiv.zip", file: "arxiv.zip", size: 12 };
    await expect(fetchFile(spec, raw, { dataDir: raw, mirror: mirror.base }, { retry: FAST_RETRY })).rejects.toThrow(
      `has size ${fs.statSync(path.join(FIXTURES, "arxiv.zip")).size} bytes but 12 bytes was expected`,
    );
    expect(fs.readdirSync(raw)).toEqual([]);
  });

  it("resumes a download cut short with a Range request", async () => {
    const raw = tempDir("mlab-url-raw-");
    const file = path.join(FIXTURES, "arxiv.zip");
    const spec = { url: "https://example.org/flaky/arxiv.zip", file: "arxiv.zip", sha256: sha256(file) };
    const before = mirror.requests.length;
    await fetchFile(spec, raw, { dataDir: raw, mirror: mirror.base }, { retry: FAST_RETRY, idleTimeoutMs: 500 });
    expect(fs.readFileSync(path.join(raw, "arxiv.zip")).equals(fs.readFileSync(file))).toBe(true);
    const mine = mirror.requests.slice(before);
    expect(mine.map((r) => r.path)).toEqual(["/flaky/arxiv.zip", "/flaky/arxiv.zip"]);
    expect(mine[1].range).toBe(`bytes=${fs.statSync(file).size >> 1}-`);
  });

  it("reports a missing file as an HTTP 404 without retrying", async () => {
    const raw = tempDir("mlab-url-raw-");
    const spec = { url: "https://example.org/x/nothing-here.zip", file: "nothing-here.zip", size: 1 };
    await expect(fetchFile(spec, raw, { dataDir: raw, mirror: mirror.base }, { retry: FAST_RETRY })).rejects.toThrow(/HTTP 404 \(the file is not there/);
  });

  it("leaves the task not ready when building fails, and reuses the verified download next time", async () => {
    const ctx: TaskContext = { dataDir: tempDir("mlab-url-"), mirror: mirror.base };
    const good = withFixtureChecksums(OGBN_ARXIV_DATA);
    const broken: UrlDataset = {
      ...good,
      async build(folders) {
        fs.writeFileSync(path.join(folders.public, "half.txt"), "x");
        throw new UserError("the archive is damaged");
      },
    };
    await expect(fetchUrlDataset(broken, ctx, { retry: FAST_RETRY })).rejects.toThrow("the archive is damaged");
    expect(isUrlDataReady(ctx)).toBe(false);
    expect(fs.readdirSync(ctx.dataDir).sort()).toEqual(["raw"]);
    // A build folder left by a process that died is cleared; one of a live process is not touched.
    fs.mkdirSync(path.join(ctx.dataDir, ".building-999999999-dead"));
    fs.mkdirSync(path.join(ctx.dataDir, `.building-${process.pid}-live`));
    const before = mirror.requests.length;
    await fetchUrlDataset(good, ctx, { retry: FAST_RETRY });
    expect(mirror.requests.length).toBe(before);
    expect(isUrlDataReady(ctx)).toBe(true);
    expect(fs.readdirSync(ctx.dataDir).sort()).toEqual([`.building-${process.pid}-live`, READY_MARKER, "private", "public", "raw"]);
  });
});

interface Case {
  task: ResearchTask;
  dataset: UrlDataset;
  grade: (workspace: string, ctx: TaskContext) => number;
  golden: string;
  submission: string;
  /** Files (relative) the workspace must hold besides train.py. */
  publicFiles: string[];
  readOnly: string[];
}

const CASES: Case[] = [
  {
    task: cifar10Task,
    dataset: CIFAR10_DATA,
    grade: gradeCifar10,
    golden: "cifar10",
    submission: "cifar10_submission.csv",
    publicFiles: ["batches.meta", "data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5", "test_batch"].map((f) => `data/cifar-10-batches-py/${f}`),
    readOnly: ["data"],
  },
  {
    task: imdbTask,
    dataset: IMDB_DATA,
    grade: gradeImdb,
    golden: "imdb",
    submission: "imdb_submission.csv",
    publicFiles: ["data/test.csv", "data/train.csv"],
    readOnly: ["data"],
  },
  {
    task: ogbnArxivTask,
    dataset: OGBN_ARXIV_DATA,
    grade: gradeOgbnArxiv,
    golden: "ogbn-arxiv",
    submission: "ogbn_arxiv_submission.csv",
    publicFiles: [
      "RELEASE_v1.txt",
      "mapping/nodeidx2paperid.csv.gz",
      "raw/edge.csv.gz",
      "raw/node-feat.csv.gz",
      "raw/node-label.csv.gz",
      "raw/node_year.csv.gz",
      "raw/num-edge-list.csv.gz",
      "raw/num-node-list.csv.gz",
      "split/time/test.csv.gz",
      "split/time/train.csv.gz",
      "split/time/valid.csv.gz",
    ].map((f) => `networks/ogbn_arxiv/${f}`),
    readOnly: ["networks"],
  },
];

describe.each(CASES)("research task $task.name", ({ task, dataset, grade, golden, submission, publicFiles, readOnly }) => {
  const ctx: TaskContext = { dataDir: tempDir(`mlab-${task.name}-data-`), mirror: mirror?.base };
  const expected = GOLDEN[golden];
  let workspace: string;

  beforeAll(async () => {
    ctx.mirror = mirror.base;
    workspace = tempDir(`mlab-${task.name}-ws-`);
    await expect(task.prepare(workspace, ctx)).rejects.toThrow(`run \`mlebench tasks prepare ${task.name}\` first`);
    await fetchUrlDataset(withFixtureChecksums(dataset), ctx, { retry: FAST_RETRY });
    await task.prepare(workspace, ctx);
  }, 60_000);

  it("is registered as a download task with upstream's read-only files", async () => {
    expect(taskNames()).toContain(task.name);
    expect(await getTask(task.name)).toBe(task);
    expect(task.needsDownload).toBe(true);
    expect(task.direction).toBe("higher");
    expect(task.readOnly).toEqual(readOnly);
    expect(task.baseline).toBeNull();
    expect(task.isReady!(ctx)).toBe(true);
  });

  it("puts the starter and the public data in the workspace, and no answers", () => {
    expect(listFiles(workspace)).toEqual(["train.py", ...publicFiles].sort());
    expect(listFiles(path.join(ctx.dataDir, "private"))).toEqual(["test_labels.csv"]);
    const answers = readCsv(path.join(ctx.dataDir, "private", "test_labels.csv"));
    expect(Array.from(answers.data.get("label")!.values as Float64Array)).toEqual(expected.test_labels);
  });

  it("grades the golden submission like upstream's evaluator", () => {
    fs.copyFileSync(path.join(FIXTURES, submission), path.join(workspace, "submission.csv"));
    expect(grade(workspace, ctx)).toBeCloseTo(expected.accuracy, 12);
  });

  it("scores what train.py writes, not a stale submission.csv", async () => {
    const dir = tempDir(`mlab-${task.name}-copy-`);
    fs.cpSync(workspace, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "train.py"), copier(path.join(FIXTURES, submission)));
    fs.writeFileSync(path.join(dir, "submission.csv"), "stale\n");
    expect(await task.score(dir, hostRunner(dir), ctx)).toBeCloseTo(expected.accuracy, 12);
    fs.writeFileSync(path.join(dir, "train.py"), "import sys\nsys.exit('no model yet')\n");
    await expectInvalid(task.score(dir, hostRunner(dir), ctx), /train\.py failed with exit code 1:\nno model yet/);
    fs.writeFileSync(path.join(dir, "train.py"), "pass\n");
    await expectInvalid(task.score(dir, hostRunner(dir), ctx), /submission\.csv is missing/);
  }, 60_000);

  it.skipIf(!HAS_TORCH)(
    "runs its starter train.py end to end",
    async () => {
      const dir = tempDir(`mlab-${task.name}-starter-`);
      fs.cpSync(workspace, dir, { recursive: true });
      const score = await task.score(dir, hostRunner(dir), ctx);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(fs.existsSync(path.join(dir, "submission.csv"))).toBe(true);
    },
    120_000,
  );
});

describe("what the workspace may see", () => {
  it("cifar10's public test batch has neither labels nor the class-revealing file names", async () => {
    const ctx: TaskContext = { dataDir: tempDir("mlab-cifar-") , mirror: mirror.base };
    await fetchUrlDataset(withFixtureChecksums(CIFAR10_DATA), ctx, { retry: FAST_RETRY });
    const testBatch = fs.readFileSync(path.join(ctx.dataDir, "public/data/cifar-10-batches-py/test_batch"));
    expect(testBatch.includes("labels")).toBe(false);
    expect(testBatch.includes("filenames")).toBe(false);
    expect(testBatch.includes("class_")).toBe(false);
    expect(testBatch.includes("data")).toBe(true);
    // The training batches are copied byte for byte.
    const extracted = tempDir("mlab-cifar-x-");
    const { execFileSync } = await import("node:child_process");
    execFileSync("tar", ["-xzf", path.join(FIXTURES, "cifar-10-python.tar.gz"), "-C", extracted]);
    const original = fs.readFileSync(path.join(extracted, "cifar-10-batches-py/data_batch_3"));
    expect(fs.readFileSync(path.join(ctx.dataDir, "public/data/cifar-10-batches-py/data_batch_3")).equals(original)).toBe(true);
  });

  it("imdb's test reviews are in label-blind order with no label column", async () => {
    const ctx: TaskContext = { dataDir: tempDir("mlab-imdb-"), mirror: mirror.base };
    await fetchUrlDataset(withFixtureChecksums(IMDB_DATA), ctx, { retry: FAST_RETRY });
    const test = readCsv(path.join(ctx.dataDir, "public/data/test.csv"));
    expect(test.columns).toEqual(["idx", "text"]);
    expect(test.rowCount).toBe(10);
    expect((test.data.get("text")!.values as string[])[0]).toMatch(/, "really" <br \/><br \/>café\.$/);
    const train = readCsv(path.join(ctx.dataDir, "public/data/train.csv"));
    expect(train.columns).toEqual(["text", "label"]);
    expect(Array.from(train.data.get("label")!.values as Float64Array).sort()).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
  });

  it("ogbn-arxiv's public labels hide exactly the test papers", async () => {
    const ctx: TaskContext = { dataDir: tempDir("mlab-arxiv-"), mirror: mirror.base };
    await fetchUrlDataset(withFixtureChecksums(OGBN_ARXIV_DATA), ctx, { retry: FAST_RETRY });
    const labels = zlib.gunzipSync(fs.readFileSync(path.join(ctx.dataDir, "public/networks/ogbn_arxiv/raw/node-label.csv.gz"))).toString().trim().split("\n").map(Number);
    const hidden = labels.flatMap((v, i) => (v === -1 ? [i] : []));
    expect(hidden.sort((a, b) => a - b)).toEqual([...GOLDEN["ogbn-arxiv"].test_nodes!].sort((a, b) => a - b));
    expect(labels.length).toBe(30);
  });
});

describe("bad submissions", () => {
  const ctx: TaskContext = { dataDir: tempDir("mlab-bad-") };
  let cifarCtx: TaskContext;
  let arxivCtx: TaskContext;
  beforeAll(async () => {
    cifarCtx = { dataDir: tempDir("mlab-bad-cifar-"), mirror: mirror.base };
    arxivCtx = { dataDir: tempDir("mlab-bad-arxiv-"), mirror: mirror.base };
    await fetchUrlDataset(withFixtureChecksums(CIFAR10_DATA), cifarCtx, { retry: FAST_RETRY });
    await fetchUrlDataset(withFixtureChecksums(OGBN_ARXIV_DATA), arxivCtx, { retry: FAST_RETRY });
  }, 60_000);

  function workspaceWith(text: string): string {
    const dir = tempDir("mlab-bad-ws-");
    fs.writeFileSync(path.join(dir, "submission.csv"), text);
    return dir;
  }
  const header = `,${Array.from({ length: 10 }, (_, i) => i).join(",")}\n`;
  const row = (i: number, best: number) => `${i},${Array.from({ length: 10 }, (_, k) => (k === best ? 0.9 : 0.01)).join(",")}\n`;
  const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i, 0)).join("");

  it("names what is wrong with a probability submission", async () => {
    await expectInvalid(() => gradeCifar10(tempDir("mlab-bad-ws-"), cifarCtx), /submission\.csv is missing/);
    await expectInvalid(() => gradeCifar10(workspaceWith(",0,1\n0,0.5,0.5\n"), cifarCtx), /must have 10 probability columns .* it has 2: 0, 1/);
    await expectInvalid(() => gradeCifar10(workspaceWith(header + rows(11)), cifarCtx), /no row for test example 11; it needs one for each of 0 to 11/);
    await expectInvalid(() => gradeCifar10(workspaceWith(header + rows(12) + row(3, 1)), cifarCtx), /index 3 appears more than once \(rows 5 and 14\)/);
    await expectInvalid(() => gradeCifar10(workspaceWith(header + rows(12).replace("0.9", "cat")), cifarCtx), /column "0" must hold numbers/);
    await expectInvalid(() => gradeCifar10(workspaceWith(header + rows(12).replace("\n1,0.9", "\n1,")), cifarCtx), /row 3 \(test example 1\) has a missing value in column "0"/);
    await expectInvalid(() => gradeImdb(workspaceWith("id,0,1\n0,0.1,0.9\n"), { dataDir: cifarCtx.dataDir }), /no index column "idx"/);
  });

  it("counts the first of tied classes, like numpy's argmax", () => {
    const labels = GOLDEN.cifar10.test_labels;
    const all = labels.map((y, i) => row(i, y)).join("");
    expect(gradeCifar10(workspaceWith(header + all), cifarCtx)).toBe(1);
    const ties = labels.map((_, i) => `${i},${Array(10).fill(0.1).join(",")}\n`).join("");
    expect(gradeCifar10(workspaceWith(header + ties), cifarCtx)).toBe(labels.filter((y) => y === 0).length / labels.length);
  });

  it("names what is wrong with an ogbn-arxiv submission", async () => {
    const n = GOLDEN["ogbn-arxiv"].test_labels.length;
    await expectInvalid(() => gradeOgbnArxiv(workspaceWith("0,1\n3,4\n"), arxivCtx), /exactly one column .* it has 2: 0, 1/);
    await expectInvalid(() => gradeOgbnArxiv(workspaceWith("0\n1\n2\n"), arxivCtx), new RegExp(`has 2 rows after the header; it needs one per test paper, ${n}`));
    await expectInvalid(() => gradeOgbnArxiv(workspaceWith("0\n" + "1.5\n".repeat(n)), arxivCtx), /row 2: "1.5" is not a category number/);
    expect(gradeOgbnArxiv(workspaceWith("0\n" + GOLDEN["ogbn-arxiv"].test_labels.join("\n") + "\n"), arxivCtx)).toBe(1);
  });

  it("refuses to grade before the data is prepared", async () => {
    expect(URL_TASKS.map((t) => t.name)).toEqual(["cifar10", "imdb", "ogbn-arxiv", "clrs", "babylm", "llama-inference"]);
    for (const task of URL_TASKS) {
      await expect(task.score(tempDir("mlab-bad-ws-"), hostRunner(ctx.dataDir), ctx)).rejects.toThrow(`run \`mlebench tasks prepare ${task.name}\` first`);
    }
  });
});

/** A runner standing in for a machine with the evaluation's libraries: it lets `act` see the hidden folder, then answers. */
function stubRunner(workspace: string, act: (ioDir: string, request: RunRequest) => void): TaskRunner {
  return async (request) => {
    act(path.join(workspace, request.argv[2]), request);
    return { exitCode: 0, stdout: "", stderr: "", timedOut: false, wallMs: 1 };
  };
}

describe("evaluated tasks (clrs, babylm)", () => {
  const clrsCtx: TaskContext = { dataDir: tempDir("mlab-clrs-") };
  const babylmCtx: TaskContext = { dataDir: tempDir("mlab-babylm-") };
  beforeAll(async () => {
    clrsCtx.mirror = babylmCtx.mirror = mirror.base;
    await fetchUrlDataset(CLRS_DATA, clrsCtx, { retry: FAST_RETRY });
    await fetchUrlDataset(BABYLM_DATA, babylmCtx, { retry: FAST_RETRY });
  }, 60_000);

  it("clrs keeps only the floyd_warshall test split, privately", async () => {
    expect(mirror.requests.some((r) => r.path === "/dm-clrs/CLRS30_v1.0.0.tar.gz")).toBe(true);
    expect(listFiles(path.join(clrsCtx.dataDir, "private"))).toEqual(
      ["clrs_dataset-test.tfrecord-00000-of-00001", "dataset_info.json", "features.json"].map((f) => `CLRS30/clrs_dataset/floyd_warshall_test/1.0.0/${f}`),
    );
    const workspace = tempDir("mlab-clrs-ws-");
    await clrsTask.prepare(workspace, clrsCtx);
    expect(listFiles(workspace)).toEqual(["baselines.py", "train.py"]);
    expect(clrsTask.direction).toBe("higher");
  });

  it("clrs scores the checkpoint with the test split present only during the evaluation", async () => {
    const workspace = tempDir("mlab-clrs-ws-");
    await clrsTask.prepare(workspace, clrsCtx);
    let seen: string[] = [];
    const runner = stubRunner(workspace, (io, request) => {
      seen = listFiles(io);
      expect(request.input).toContain("restore_model(\"best.pkl\"");
      fs.writeFileSync(path.join(io, "report.json"), JSON.stringify({ score: 0.734375 }));
    });
    expect(await clrsTask.score(workspace, runner, clrsCtx)).toBe(0.734375);
    expect(seen).toContain("CLRS30/clrs_dataset/floyd_warshall_test/1.0.0/dataset_info.json");
    expect(listFiles(workspace)).toEqual(["baselines.py", "train.py"]);
    const failing = stubRunner(workspace, (io) => fs.writeFileSync(path.join(io, "report.json"), JSON.stringify({ error: "baselines.py cannot be imported: boom" })));
    await expectInvalid(clrsTask.score(workspace, failing, clrsCtx), /checkpoints\/best\.pkl cannot be scored: baselines\.py cannot be imported: boom/);
    await expectInvalid(clrsTask.score(workspace, stubRunner(workspace, () => {}), clrsCtx), /ended \(exit code 0\) without a result/);
  });

  it("clrs's own evaluator says which checkpoint files are missing", async () => {
    const workspace = tempDir("mlab-clrs-ws-");
    await clrsTask.prepare(workspace, clrsCtx);
    fs.mkdirSync(path.join(workspace, "checkpoints"));
    fs.writeFileSync(path.join(workspace, "checkpoints", "spec_list.pkl"), "");
    await expectInvalid(clrsTask.score(workspace, hostRunner(workspace), clrsCtx), /checkpoints\/model_params\.pkl, checkpoints\/best\.pkl missing: run train\.py/);
    expect(fs.readdirSync(workspace).sort()).toEqual(["baselines.py", "checkpoints", "train.py"]);
  }, 30_000);

  it("babylm gives the workspace the 10M and dev sets and keeps the test set private", async () => {
    const workspace = tempDir("mlab-babylm-ws-");
    await babylmTask.prepare(workspace, babylmCtx);
    const files = listFiles(workspace);
    expect(files.filter((f) => f.startsWith("babylm_data/babylm_10M/")).length).toBe(10);
    expect(files.filter((f) => f.startsWith("babylm_data/babylm_dev/")).length).toBe(10);
    expect(files.filter((f) => /babylm_test|babylm_100M|__MACOSX/.test(f))).toEqual([]);
    expect(files).toContain("train.py");
    expect(listFiles(path.join(babylmCtx.dataDir, "private")).length).toBe(10);
    expect(fs.readFileSync(path.join(babylmCtx.dataDir, "private/babylm_test/qed.test"), "utf8")).toBe("qed babylm_test line one\n\nline three\n");
    expect(babylmTask.direction).toBe("lower");
    expect(babylmTask.readOnly).toEqual(["babylm_data"]);
  });

  it("babylm scores output/ by perplexity, infinite included", async () => {
    const workspace = tempDir("mlab-babylm-ws-");
    await babylmTask.prepare(workspace, babylmCtx);
    await expectInvalid(babylmTask.score(workspace, hostRunner(workspace), babylmCtx), /output\/config\.json is missing/);
    let seen: string[] = [];
    const runner = (score: unknown) =>
      stubRunner(workspace, (io) => {
        seen = listFiles(io);
        fs.writeFileSync(path.join(io, "report.json"), JSON.stringify({ score }));
      });
    expect(await babylmTask.score(workspace, runner(41.25), babylmCtx)).toBe(41.25);
    expect(seen.length).toBe(10);
    expect(seen).toContain("babylm_test/wikipedia.test");
    expect(await babylmTask.score(workspace, runner("inf"), babylmCtx)).toBe(Infinity);
    await expectInvalid(babylmTask.score(workspace, runner("many"), babylmCtx), /reported no numeric score/);
  }, 30_000);
});

describe("llama-inference", () => {
  const ctx: TaskContext = { dataDir: tempDir("mlab-llama-") };
  const dataset: UrlDataset = withFixtureChecksums({
    ...LLAMA_INFERENCE_DATA,
    downloads: LLAMA_INFERENCE_DATA.downloads.filter((d) => d.file === "wikitext-103-v1.zip" || d.file === "tokenizer.model"),
  });
  let workspace: string;
  let starter: string;
  beforeAll(async () => {
    ctx.mirror = mirror.base;
    await fetchUrlDataset(dataset, ctx, { retry: FAST_RETRY });
    workspace = tempDir("mlab-llama-ws-");
    await llamaInferenceTask.prepare(workspace, ctx);
    starter = fs.readFileSync(path.join(workspace, "inference.py"), "utf8");
  }, 60_000);

  it("downloads the model from the hub and the WikiText-103 test text", () => {
    expect(LLAMA_INFERENCE_DATA.downloads.map((d) => d.url)).toContain("https://huggingface.co/huggyllama/llama-7b/resolve/main/pytorch_model-00001-of-00002.bin");
    expect(mirror.requests.some((r) => r.path === "/huggyllama/llama-7b/resolve/main/tokenizer.model")).toBe(true);
    expect(listFiles(workspace)).toEqual(["inference.py", "model/tokenizer.model", "wikitext-103/wiki.test.tokens"]);
    expect(fs.readFileSync(path.join(workspace, "wikitext-103/wiki.test.tokens"), "utf8")).toBe(" = test = \n\n some text @-@ here \n");
    expect(llamaInferenceTask.direction).toBe("lower");
  });

  it("scores the time inference.py prints, once its protected block is unchanged", async () => {
    const write = (text: string) => fs.writeFileSync(path.join(workspace, "inference.py"), text);
    write(`print("Average per token generation time:  0.5")\nprint("Average per token generation time:  0.25")\nraise SystemExit(0)\n${starter}`);
    expect(await measureInference(workspace, hostRunner(workspace))).toBe(0.25);
    write(`raise SystemExit(0)\n${starter}`);
    await expectInvalid(measureInference(workspace, hostRunner(workspace)), /did not print a positive "Average per token generation time/);
    write(starter.replace("context_length = 128", "context_length = 16"));
    await expectInvalid(measureInference(workspace, hostRunner(workspace)), /was changed; it must stay as it was/);
    write(starter.replace("#### DO NOT EDIT ######\n", ""));
    await expectInvalid(measureInference(workspace, hostRunner(workspace)), /no longer has its/);
  }, 30_000);
});
