import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import type { ViewGroup } from "../../src/view/groups.js";
import { callEntry } from "../../src/view/llm-calls.js";
import { SEARCH_CHUNK_BYTES, searchRuns, type SearchQuery } from "../../src/view/search.js";
import { tempDir } from "../helpers/data-dir.js";

const TRAIN = "import numpy as np\nimport LightGBM as lgb\nmodel = lgb.LGBMClassifier()\n";
const MODEL = "from lightgbm import LGBMClassifier\n";
const SNAP = "lr = 0.1\nlearning_rate = lr\n";
const FINAL = "learning_rate = 0.01\n";
const AGENT_LOG = "starting\nTraining with lightgbm\ndone\n";
const RUN_LOG = "2026 started\n2026 Rate limit reached, waiting\n";
const Z = "z".repeat(146);

function write(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}

function call(attempts: number, error: string | null, messages: { role: string; content: string }[], text: string | null) {
  return {
    time: "2026-01-01T00:00:05.000Z", model: "openai/gpt-4o", latencyMs: 800, attempts, error, costUsd: null,
    request: { messages }, response: text === null ? null : { text, toolCalls: [] }, usage: null,
  };
}

/** A line of `length` "z"s with "lightgbm" at `at`. */
function longLine(length: number, at: number): string {
  return "z".repeat(at) + "lightgbm" + "z".repeat(length - at - 8);
}

let groups: ViewGroup[];
let r0: string;
let bigLog: Buffer;

beforeAll(() => {
  const root = tempDir("view-search-");
  const mleDir = path.join(root, "g-mle");
  r0 = path.join(mleDir, "r0");
  write(path.join(r0, "code", "train.py"), TRAIN);
  write(path.join(r0, "logs", "agent.log"), AGENT_LOG);
  write(path.join(r0, "run.log"), RUN_LOG);
  const calls = [
    JSON.stringify(call(1, null, [{ role: "system", content: "You are a Kaggle grandmaster." }, { role: "user", content: "Write code using lightgbm" }], "Sure.")),
    JSON.stringify(call(3, "HTTP 429: rate limit exceeded", [{ role: "user", content: "again" }], null)),
    "",
    JSON.stringify(call(2, null, [{ role: "user", content: "retry please" }], "Use XGBoost instead.")),
    "{cut off",
  ];
  write(path.join(r0, "logs", "llm.jsonl"), calls.join("\n"));

  const r1 = path.join(mleDir, "r1");
  write(path.join(r1, "code", "model.py"), MODEL);
  write(path.join(root, "outside", "secret.py"), "import lightgbm\n");
  fs.symlinkSync(path.join(root, "outside", "secret.py"), path.join(r1, "code", "evil.py"));
  // Lines 1-10485 fill the first read chunk but for 76 bytes; line 10486's match spans the chunk's
  // end; lines 10487 and 10488 are longer than a piece, with a match across a piece's end and one
  // just before it.
  bigLog = Buffer.from(
    ("x".repeat(99) + "\n").repeat(10485) +
      "y".repeat(72) + "LightGBM found\n" +
      longLine(2 << 20, (1 << 20) - 3) + "\n" +
      longLine(2 << 20, (1 << 20) - 100) + "\n" +
      "the end: LIGHTGBM\n",
  );
  write(path.join(r1, "logs", "agent.log"), bigLog);
  fs.symlinkSync("/etc/passwd", path.join(r1, "logs", "run.log"));

  const resDir = path.join(root, "g-res");
  const res = path.join(resDir, "cifar10-seed0");
  const steps = [{ step: 0, action: { name: "Edit Script (AI)", args: {} }, observation: "", started: 1, timestamp: 2, files: { changed: ["train.py"], deleted: [], tooLarge: [] } }];
  write(path.join(res, "trace", "trace.json"), JSON.stringify({ steps }));
  write(path.join(res, "trace", "snapshots", "0", "train.py"), SNAP);
  write(path.join(res, "workspace", "train.py"), FINAL);
  write(path.join(res, "logs", "run.log"), "ok\n");
  write(path.join(res, "logs", "llm.jsonl"), JSON.stringify(call(1, "timeout after 60 s", [{ role: "user", content: "go" }], null)) + "\n");

  const base = { agent_id: "dummy", created_at: "2026-01-01T00:00:00Z", meta: null };
  groups = [
    { ...base, id: "g-mle", dir: mleDir, kind: "mle", name: "g-mle", runs: [{ run_id: "r0", competition_id: "titanic", seed: 0 }, { run_id: "r1", competition_id: "titanic", seed: 1 }] },
    { ...base, id: "g-res", dir: resDir, kind: "research", name: "g-res", runs: [{ run_id: "cifar10-seed0", competition_id: "cifar10", seed: 0 }] },
  ];
});

const hit = (group: string, run_id: string, competition_id: string, where: string, line: number | null, excerpt: string) => ({ group, run_id, competition_id, where, line, excerpt });

describe("searchRuns in code", () => {
  it("finds lines of code ignoring case, and not through links", () => {
    expect(searchRuns(groups, { text: "lightgbm", in: "code" })).toEqual({
      query: { text: "lightgbm", in: "code", retried: false, limit: 200 },
      hits: [hit("g-mle", "r0", "titanic", "code/train.py", 2, "import LightGBM as lgb"), hit("g-mle", "r1", "titanic", "code/model.py", 1, "from lightgbm import LGBMClassifier")],
      runs_matched: 2,
      truncated: false,
      scanned: { runs: 3, files: 4, bytes: Buffer.byteLength(TRAIN + MODEL + SNAP + FINAL) },
    });
    const r = searchRuns(groups, { text: "LEARNING_RATE", in: "code" });
    expect(r.hits).toEqual([hit("g-res", "cifar10-seed0", "cifar10", "step/0/train.py", 2, "learning_rate = lr"), hit("g-res", "cifar10-seed0", "cifar10", "workspace/train.py", 1, "learning_rate = 0.01")]);
    expect(r.runs_matched).toBe(1);
  });

  it("takes the text literally, never as a pattern", () => {
    expect(searchRuns(groups, { text: "lgb.LGBMClassifier(", in: "code" }).hits).toEqual([hit("g-mle", "r0", "titanic", "code/train.py", 3, "model = lgb.LGBMClassifier()")]);
    expect(searchRuns(groups, { text: "(a+)+$", in: "code" }).hits).toEqual([]);
  });

  it("stops at the limit and says so", () => {
    const two = searchRuns(groups, { text: "lgb", in: "code", limit: 2 });
    expect(two.hits).toEqual([hit("g-mle", "r0", "titanic", "code/train.py", 2, "import LightGBM as lgb"), hit("g-mle", "r0", "titanic", "code/train.py", 3, "model = lgb.LGBMClassifier()")]);
    expect([two.truncated, two.runs_matched, two.scanned.runs]).toEqual([true, 1, 2]);
    const three = searchRuns(groups, { text: "lgb", in: "code", limit: 3 });
    expect(three.hits.map((h) => `${h.run_id} ${h.where}:${h.line}`)).toEqual(["r0 code/train.py:2", "r0 code/train.py:3", "r1 code/model.py:1"]);
    expect(three.truncated).toBe(false);
  });
});

describe("searchRuns in LLM calls", () => {
  it("finds calls by their error, showing the error", () => {
    const expected = [hit("g-mle", "r0", "titanic", "llm/1", null, "HTTP 429: rate limit exceeded")];
    expect(searchRuns(groups, { text: "RATE LIMIT", in: "llm" }).hits).toEqual(expected);
    expect(searchRuns(groups, { text: "429", in: "llm" }).hits).toEqual(expected);
  });

  it("finds calls by their messages and completion, with the call index the call log uses", () => {
    expect(searchRuns(groups, { text: "lightgbm", in: "llm" }).hits).toEqual([hit("g-mle", "r0", "titanic", "llm/0", null, "Write code using lightgbm")]);
    expect(searchRuns(groups, { text: "xgboost", in: "llm" }).hits).toEqual([hit("g-mle", "r0", "titanic", "llm/3", null, "Use XGBoost instead.")]);
    const entry = callEntry(r0, 3);
    expect("entry" in entry && (entry.entry.response as { text: string }).text).toBe("Use XGBoost instead.");
  });

  it("keeps only retried or failed calls when asked, with or without a text", () => {
    const r = searchRuns(groups, { text: "", in: "llm", retried: true });
    expect(r.hits).toEqual([
      hit("g-mle", "r0", "titanic", "llm/1", null, "HTTP 429: rate limit exceeded"),
      hit("g-mle", "r0", "titanic", "llm/3", null, "2 attempts"),
      hit("g-res", "cifar10-seed0", "cifar10", "llm/0", null, "timeout after 60 s"),
    ]);
    expect([r.runs_matched, r.truncated]).toEqual([2, false]);
    expect(searchRuns(groups, { text: "xgboost", in: "llm", retried: true }).hits).toEqual([hit("g-mle", "r0", "titanic", "llm/3", null, "Use XGBoost instead.")]);
    expect(searchRuns(groups, { text: "lightgbm", in: "llm", retried: true }).hits).toEqual([]);
  });

  it("cuts a long match to an excerpt around it", () => {
    const root = tempDir("view-search-long-");
    const run = path.join(root, "r");
    write(path.join(run, "logs", "llm.jsonl"), JSON.stringify(call(1, null, [{ role: "user", content: "a".repeat(1000) + "NEEDLE" + "b".repeat(1000) }], "ok")) + "\n");
    const g: ViewGroup = { id: "g", dir: root, kind: "mle", name: "g", agent_id: "a", created_at: "", meta: null, runs: [{ run_id: "r", competition_id: "c", seed: 0 }] };
    expect(searchRuns([g], { text: "needle", in: "llm" }).hits).toEqual([hit("g", "r", "c", "llm/0", null, "…" + "a".repeat(147) + "NEEDLE" + "b".repeat(147) + "…")]);
  });
});

describe("searchRuns in logs", () => {
  it("finds log lines with their numbers, across read chunks and in lines longer than a piece", () => {
    expect(SEARCH_CHUNK_BYTES).toBe(1 << 20);
    expect(bigLog.indexOf("LightGBM")).toBe(SEARCH_CHUNK_BYTES - 4);
    const r = searchRuns(groups, { text: "lightgbm", in: "logs" });
    expect(r.hits).toEqual([
      hit("g-mle", "r0", "titanic", "logs/agent.log", 2, "Training with lightgbm"),
      hit("g-mle", "r1", "titanic", "logs/agent.log", 10486, "y".repeat(72) + "LightGBM found"),
      hit("g-mle", "r1", "titanic", "logs/agent.log", 10487, `…${Z}lightgbm${Z}…`),
      hit("g-mle", "r1", "titanic", "logs/agent.log", 10488, `…${Z}lightgbm${Z}…`),
      hit("g-mle", "r1", "titanic", "logs/agent.log", 10489, "the end: LIGHTGBM"),
    ]);
    expect(r.scanned).toEqual({ runs: 3, files: 4, bytes: AGENT_LOG.length + RUN_LOG.length + bigLog.length + 3 });
    expect(r.runs_matched).toBe(2);
  });

  it("searches the harness's run.log and never a linked log", () => {
    expect(searchRuns(groups, { text: "rate limit", in: "logs" }).hits).toEqual([hit("g-mle", "r0", "titanic", "run.log", 2, "2026 Rate limit reached, waiting")]);
    expect(searchRuns(groups, { text: "root:", in: "logs" }).hits).toEqual([]);
  });
});

describe("searchRuns query checks", () => {
  const bad: [SearchQuery, string][] = [
    [{ text: "x".repeat(201), in: "code" }, "the search text is 201 characters long; at most 200 are allowed"],
    [{ text: "x", in: "files" as SearchQuery["in"] }, 'cannot search in "files": choose code, llm or logs'],
    [{ text: "", in: "code" }, "the search text is empty: give 1 to 200 characters (only a search of LLM calls for retried ones may leave it empty)"],
    [{ text: "", in: "llm" }, "the search text is empty: give 1 to 200 characters (only a search of LLM calls for retried ones may leave it empty)"],
    [{ text: "x", in: "code", limit: 0 }, "the hit limit must be a whole number from 1 to 1000, not 0"],
    [{ text: "x", in: "code", limit: 1001 }, "the hit limit must be a whole number from 1 to 1000, not 1001"],
    [{ text: "x", in: "code", limit: 2.5 }, "the hit limit must be a whole number from 1 to 1000, not 2.5"],
  ];
  it.each(bad)("refuses %j", (q, message) => {
    expect(() => searchRuns(groups, q)).toThrow(UserError);
    expect(() => searchRuns(groups, q)).toThrow(message);
  });

  it("accepts 200 characters", () => {
    expect(searchRuns(groups, { text: "x".repeat(200), in: "code", limit: 1000 }).hits).toEqual([]);
  });
});
