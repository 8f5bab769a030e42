import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidSubmissionError, UserError } from "../../src/core/errors.js";
import { listFiles } from "../../src/io/extract.js";
import { zipDirectory } from "../../src/io/zip-write.js";
import { mcrmse } from "../../src/metrics/mcrmse.js";
import { smapePlusOne } from "../../src/metrics/smape.js";
import { READY_MARKER } from "../../src/mlagentbench/tasks/kaggle-data.js";
import { KAGGLE_TASKS } from "../../src/mlagentbench/tasks/kaggle-tasks.js";
import { getTask } from "../../src/mlagentbench/tasks/registry.js";
import { hostRunner } from "../../src/mlagentbench/tasks/runner.js";
import type { ResearchTask, RunResult, TaskContext, TaskRunner } from "../../src/mlagentbench/tasks/types.js";
import { authHeader } from "../../src/sources/kaggle/index.js";
import { tempDir } from "../helpers/data-dir.js";
import { sendFile, sendJson, startFakeServer, type FakeServer } from "../helpers/fake-kaggle.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/mlagentbench/kaggle-tasks/", import.meta.url));

interface Golden {
  name: string;
  submission: string;
  score: number;
}

/** Per task: its Kaggle competition, the synthetic download's train-set size, and what the split must produce. */
const CASES: { task: string; competition: string; hidden: string[]; trainFraction?: number; rawTrainRows?: number }[] = [
  { task: "house-price", competition: "home-data-for-ml-course", hidden: ["SalePrice"], trainFraction: 0.8, rawTrainRows: 47 },
  { task: "spaceship-titanic", competition: "spaceship-titanic", hidden: ["Transported"], trainFraction: 0.8, rawTrainRows: 52 },
  {
    task: "feedback",
    competition: "feedback-prize-english-language-learning",
    hidden: ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"],
    trainFraction: 0.98,
    rawTrainRows: 160,
  },
  { task: "parkinsons", competition: "amp-parkinsons-disease-progression-prediction", hidden: ["rating"] },
  { task: "identify-contrails", competition: "google-research-identify-contrails-reduce-global-warming", hidden: [] },
  { task: "fathomnet", competition: "fathomnet-out-of-sample-detection", hidden: ["categories", "osd"], trainFraction: 0.98, rawTrainRows: 150 },
];

const API_PREFIX = "/api/v1";
let api: FakeServer;
const zips = new Map<string, Buffer>();

function downloadPath(competition: string): string {
  return `${API_PREFIX}/competitions/data/download-all/${competition}`;
}

function serveCompetitions(): void {
  for (const c of CASES) api.on(downloadPath(c.competition), (req, res) => sendFile(req, res, zips.get(c.task)!));
}

/** A context whose Kaggle credentials and API point at the fake server, and never at the user's own kaggle.json. */
function context(overrides: Record<string, string | undefined> = {}): TaskContext {
  return {
    dataDir: tempDir("mlab-kaggle-data-"),
    env: {
      MLEBENCH_KAGGLE_API_URL: `${api.origin}${API_PREFIX}`,
      KAGGLE_USERNAME: "tester",
      KAGGLE_KEY: "secret-key",
      KAGGLE_CONFIG_DIR: tempDir("mlab-kaggle-config-"),
      ...overrides,
    },
  };
}

/** A runner standing in for `python train.py`: it writes `submission` (when given) and exits with `exitCode`. */
function fakeTrain(workspace: string, submission: string | null, exitCode = 0): TaskRunner {
  return async (): Promise<RunResult> => {
    if (submission !== null) fs.writeFileSync(path.join(workspace, "submission.csv"), submission);
    return { exitCode, stdout: "", stderr: exitCode === 0 ? "" : "Traceback: ValueError: bad things", timedOut: false, wallMs: 1 };
  };
}

function header(file: string): string[] {
  return fs.readFileSync(file, "utf8").split("\n")[0].split(",");
}

beforeAll(async () => {
  api = await startFakeServer();
  for (const c of CASES) {
    const zip = path.join(tempDir("mlab-kaggle-zip-"), `${c.competition}.zip`);
    await zipDirectory(path.join(FIXTURES, c.task, "raw"), zip);
    zips.set(c.task, fs.readFileSync(zip));
  }
});
afterAll(async () => {
  await api.close();
});
// Handlers are not reset after each test: the starter-code tests run concurrently and download while others finish.

describe("Kaggle research tasks: registry", () => {
  it("registers the six tasks with a download, an upstream-like read-only list and no measured baseline", async () => {
    expect(KAGGLE_TASKS.map((t) => t.name)).toEqual(["house-price", "spaceship-titanic", "parkinsons", "feedback", "identify-contrails", "fathomnet"]);
    for (const t of KAGGLE_TASKS) {
      expect((await getTask(t.name))).toBe(t);
      expect(t.needsDownload).toBe(true);
      expect(t.baseline).toBeNull();
      expect(t.hiddenSources()).toEqual([]);
      expect(fs.existsSync(path.join(t.filesDir, "train.py"))).toBe(true);
    }
    expect((await getTask("house-price")).direction).toBe("lower");
    expect((await getTask("spaceship-titanic")).direction).toBe("higher");
    expect((await getTask("parkinsons")).direction).toBe("lower");
    expect((await getTask("feedback")).direction).toBe("lower");
    expect((await getTask("parkinsons")).readOnly).toContain("example_test_files");
    expect((await getTask("feedback")).readOnly).toEqual(["train.csv", "test.csv"]);
  });
});

for (const c of CASES) {
  describe(`Kaggle research task ${c.task}`, async () => {
    const task: ResearchTask = await getTask(c.task);
    const golden: Golden[] = JSON.parse(fs.readFileSync(path.join(FIXTURES, c.task, "golden.json"), "utf8"));
    let ctx: TaskContext;

    beforeAll(async () => {
      serveCompetitions();
      ctx = context();
      await task.fetchData!(ctx);
    });

    it("refuses a workspace before the data is prepared, naming the command to run", async () => {
      const fresh = context();
      expect(task.isReady!(fresh)).toBe(false);
      const workspace = path.join(tempDir("mlab-ws-"), "w");
      await expect(task.prepare(workspace, fresh)).rejects.toThrow(UserError);
      await expect(task.prepare(workspace, fresh)).rejects.toThrow(`run \`mlebench tasks prepare ${c.task}\` first`);
    });

    it("splits the download exactly as upstream's preparer does (files compared byte for byte with pandas' output)", () => {
      expect(task.isReady!(ctx)).toBe(true);
      expect(fs.existsSync(path.join(ctx.dataDir, READY_MARKER))).toBe(true);
      // identify-contrails only moves files around; its own test below compares them with the download.
      for (const side of c.task === "identify-contrails" ? [] : ["public", "private"]) {
        const expectedDir = path.join(FIXTURES, c.task, "expected", side);
        const actualDir = path.join(ctx.dataDir, side);
        expect(listFiles(actualDir)).toEqual(listFiles(expectedDir));
        for (const f of listFiles(expectedDir)) {
          expect(fs.readFileSync(path.join(actualDir, f), "utf8"), `${side}/${f}`).toBe(fs.readFileSync(path.join(expectedDir, f), "utf8"));
        }
      }
      // Only the extracted download stays in raw/ (the zip is removed once extracted).
      expect(fs.readdirSync(path.join(ctx.dataDir, "raw"))).toEqual(["files"]);
    });

    if (c.trainFraction !== undefined) {
      it(`keeps int(n × ${c.trainFraction}) rows for training and the rest as the test set`, () => {
        const rows = (f: string) => fs.readFileSync(f, "utf8").trim().split("\n").length - 1;
        const nTrain = Math.trunc(c.rawTrainRows! * c.trainFraction!);
        const pub = path.join(ctx.dataDir, "public");
        // feedback's essays span several lines, so rows are counted in the answers instead.
        if (c.task === "feedback" || c.task === "fathomnet") {
          const answerRows = rows(path.join(ctx.dataDir, "private", "answer.csv"));
          expect(answerRows).toBe(c.rawTrainRows! - nTrain);
          expect(answerRows).toBe(c.task === "feedback" ? 4 : 3);
        } else {
          expect(rows(path.join(pub, "train.csv"))).toBe(nTrain);
          expect(rows(path.join(pub, "test.csv"))).toBe(c.rawTrainRows! - nTrain);
        }
      });
    }

    it("sends the credentials to the Kaggle API once and does nothing on a second fetch", async () => {
      serveCompetitions();
      const before = api.requestsTo(downloadPath(c.competition)).length;
      await task.fetchData!(ctx);
      expect(api.requestsTo(downloadPath(c.competition))).toHaveLength(before);
      const again = context();
      await task.fetchData!(again);
      const sent = api.requestsTo(downloadPath(c.competition));
      expect(sent).toHaveLength(before + 1);
      expect(sent[before].headers.authorization).toBe(authHeader({ kind: "basic", username: "tester", key: "secret-key", source: "" }));
    });

    it("fills a workspace with starter files and public data, and no answers", async () => {
      const workspace = path.join(tempDir("mlab-ws-"), "w");
      await task.prepare(workspace, ctx);
      const files = listFiles(workspace);
      expect(files).toContain("train.py");
      for (const f of listFiles(path.join(ctx.dataDir, "public"))) expect(files).toContain(f);
      expect(files).not.toContain("answer.csv");
      const tables = files.filter((f) => f.endsWith(".csv") && !f.includes("sample_submission"));
      for (const f of tables) {
        const cols = header(path.join(workspace, f));
        if (f.endsWith("train.csv") || f.startsWith("train_") || f.startsWith("supplemental") || f === "category_key.csv") continue;
        for (const hidden of c.hidden) expect(cols, f).not.toContain(hidden);
      }
      // No file of the workspace holds a test answer's own file or id-to-label rows.
      expect(files.filter((f) => f.includes("human_pixel_masks") && !f.startsWith("train/"))).toEqual([]);
      if (c.task === "fathomnet") {
        const answerIds = fs.readFileSync(path.join(ctx.dataDir, "private", "answer.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(",")[0]);
        const trainCsv = fs.readFileSync(path.join(workspace, "multilabel_classification", "train.csv"), "utf8");
        const trainJson = fs.readFileSync(path.join(workspace, "object_detection", "train.json"), "utf8");
        const evalJson = JSON.parse(fs.readFileSync(path.join(workspace, "object_detection", "eval.json"), "utf8"));
        for (const id of answerIds) {
          expect(trainCsv).not.toContain(id);
          expect(trainJson).not.toContain(id);
        }
        expect(evalJson.images.map((im: { file_name: string }) => im.file_name.slice(0, -4)).sort()).toEqual([...answerIds].sort());
        expect(evalJson.annotations).toBeUndefined();
      }
    });

    for (const g of golden) {
      it(`scores the ${g.name} submission as scikit-learn/numpy do (${g.score.toPrecision(6)})`, async () => {
        const workspace = path.join(tempDir("mlab-ws-"), "w");
        await task.prepare(workspace, ctx);
        const score = await task.score(workspace, fakeTrain(workspace, g.submission), ctx);
        expect(score).toBeCloseTo(g.score, 10);
      });
    }

    it("gives clear InvalidSubmissionErrors for a missing submission, a failing train.py and a short submission", async () => {
      const workspace = path.join(tempDir("mlab-ws-"), "w");
      await task.prepare(workspace, ctx);
      await expect(task.score(workspace, fakeTrain(workspace, null), ctx)).rejects.toThrow(InvalidSubmissionError);
      await expect(task.score(workspace, fakeTrain(workspace, null), ctx)).rejects.toThrow(/submission\.csv is missing/);
      await expect(task.score(workspace, fakeTrain(workspace, golden[0].submission, 1), ctx)).rejects.toThrow(/train\.py failed with exit code 1:\nTraceback/);
      const lines = golden[0].submission.trim().split("\n");
      // Dropping the last line loses one test row (feedback's last essay has no line breaks inside the id column).
      const short = lines.slice(0, -1).join("\n") + "\n";
      await expect(task.score(workspace, fakeTrain(workspace, short), ctx)).rejects.toThrow(/submission\.csv (lacks 1 of the|cannot be read)/);
      await expect(task.score(workspace, fakeTrain(workspace, "nothing,here\n1,2\n"), ctx)).rejects.toThrow(/submission\.csv has no column/);
    });
  });
}

describe("identify-contrails data", () => {
  it("keeps train/ whole, serves validation scenes as test/ without masks, and keeps their masks as answers", async () => {
    serveCompetitions();
    const ctx = context();
    await (await getTask("identify-contrails")).fetchData!(ctx);
    const raw = path.join(FIXTURES, "identify-contrails", "raw");
    const pub = path.join(ctx.dataDir, "public");
    const priv = path.join(ctx.dataDir, "private");
    const same = (a: string, b: string) => expect(fs.readFileSync(a).equals(fs.readFileSync(b)), `${a} vs ${b}`).toBe(true);
    const trainFiles = listFiles(path.join(raw, "train"));
    expect(listFiles(path.join(pub, "train"))).toEqual(trainFiles);
    for (const f of trainFiles) same(path.join(pub, "train", f), path.join(raw, "train", f));
    const validation = listFiles(path.join(raw, "validation"));
    const masks = validation.filter((f) => f.endsWith("/human_pixel_masks.npy"));
    expect(masks).toHaveLength(3);
    expect(listFiles(path.join(pub, "test"))).toEqual(validation.filter((f) => !masks.includes(f)));
    expect(listFiles(path.join(priv, "test_answer"))).toEqual(masks);
    for (const f of masks) same(path.join(priv, "test_answer", f), path.join(raw, "validation", f));
    expect(fs.readdirSync(pub).sort()).toEqual(["sample_submission.csv", "test", "train", "train_metadata.json", "validation_metadata.json"]);
  });

  it("refuses a run-length encoding that is not one, and an empty cell, naming the record", async () => {
    const task = (await getTask("identify-contrails"));
    serveCompetitions();
    const ctx = context();
    await task.fetchData!(ctx);
    const workspace = path.join(tempDir("mlab-ws-"), "w");
    await task.prepare(workspace, ctx);
    const ids = fs.readdirSync(path.join(ctx.dataDir, "private", "test_answer")).sort();
    const sub = (cells: string[]) => "record_id,encoded_pixels\n" + ids.map((id, i) => `${id},${cells[i]}`).join("\n") + "\n";
    await expect(task.score(workspace, fakeTrain(workspace, sub(["-", "5 2 3 1", "-"])), ctx)).rejects.toThrow(
      new RegExp(`row 2 \\(record ${ids[1]}\\): encoded_pixels is not a valid run-length encoding`),
    );
    await expect(task.score(workspace, fakeTrain(workspace, sub(["-", "", "-"])), ctx)).rejects.toThrow(/encoded_pixels is empty; write "-"/);
  });
});

describe("Kaggle research tasks: downloads that cannot happen", async () => {
  const houseTask = await getTask("house-price");
  const task = () => houseTask;

  it("says how to provide credentials when there are none", async () => {
    const ctx = context({ KAGGLE_USERNAME: undefined, KAGGLE_KEY: undefined });
    await expect(task().fetchData!(ctx)).rejects.toThrow(UserError);
    await expect(task().fetchData!(ctx)).rejects.toThrow(/needs Kaggle credentials\. No Kaggle API credentials found/);
    expect(task().isReady!(ctx)).toBe(false);
  });

  it("points at the rules page when the competition's rules are not accepted", async () => {
    api.on(downloadPath("home-data-for-ml-course"), (_req, res) =>
      sendJson(res, 403, { code: 403, message: "You must accept this competition's rules before you'll be able to download files." }),
    );
    const ctx = context();
    await expect(task().fetchData!(ctx)).rejects.toThrow("https://www.kaggle.com/c/home-data-for-ml-course/rules");
    expect(task().isReady!(ctx)).toBe(false);
    serveCompetitions();
  });

  it("leaves no prepared data behind when the download lacks a file the split needs", async () => {
    const emptyZip = path.join(tempDir("mlab-kaggle-zip-"), "empty.zip");
    const dir = tempDir("mlab-kaggle-raw-");
    fs.writeFileSync(path.join(dir, "readme.txt"), "no data here\n");
    await zipDirectory(dir, emptyZip);
    api.on(downloadPath("home-data-for-ml-course"), (req, res) => sendFile(req, res, fs.readFileSync(emptyZip)));
    const ctx = context();
    await expect(task().fetchData!(ctx)).rejects.toThrow(/has no train\.csv/);
    expect(task().isReady!(ctx)).toBe(false);
    expect(fs.existsSync(path.join(ctx.dataDir, "public"))).toBe(false);
    expect(fs.readdirSync(ctx.dataDir).filter((f) => f.startsWith(".prepare-"))).toEqual([]);
    serveCompetitions();
  });
});

describe("Kaggle research task metrics", () => {
  it("MCRMSE averages the per-column RMSEs", () => {
    // RMSEs 1 (errors 1, 1) and sqrt(2) (errors 0, 2): mean (1 + 1.41421356...) / 2.
    expect(mcrmse([[1, 2], [3, 3]], [[2, 3], [3, 5]])).toBeCloseTo((1 + Math.SQRT2) / 2, 15);
    expect(() => mcrmse([[1]], [])).toThrow(/1 true columns but 0 predicted/);
  });

  it("SMAPE+1 skips missing true values and refuses negative ones", () => {
    // |3 - 1| / (2 + 1) = 2/3 and 0 for the exact row, the NaN row unscored: mean 1/3, times 100.
    expect(smapePlusOne([1, 5, Number.NaN], [3, 5, 7])).toBeCloseTo(100 / 3, 12);
    expect(smapePlusOne([0], [0])).toBe(0);
    expect(() => smapePlusOne([1], [-1])).toThrow(/prediction 0 is negative/);
    expect(() => smapePlusOne([1, 2], [1])).toThrow(/inconsistent numbers of samples/);
  });
});

describe.concurrent("Kaggle research tasks: starter code on the synthetic data", () => {
  for (const name of ["house-price", "spaceship-titanic", "feedback", "parkinsons", "identify-contrails", "fathomnet"]) {
    it(`${name}: train.py runs and its submission scores`, async () => {
      serveCompetitions();
      const ctx = context();
      const task = (await getTask(name));
      await task.fetchData!(ctx);
      const workspace = path.join(tempDir("mlab-ws-"), "w");
      await task.prepare(workspace, ctx);
      const score = await task.score(workspace, hostRunner(workspace), ctx);
      expect(Number.isFinite(score)).toBe(true);
      if (task.direction === "higher") expect(score).toBeGreaterThanOrEqual(0);
      else expect(score).toBeGreaterThan(0);
    }, 120_000);
  }
});
