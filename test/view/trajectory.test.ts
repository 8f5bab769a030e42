import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aideTree, cut, researchSteps } from "../../src/view/trajectory.js";
import { buildTimeline, zoneOffsetMs } from "../../src/view/timeline.js";
import { SnapshotScorer } from "../../src/view/snapshots.js";
import { tempDir } from "../helpers/data-dir.js";
import type { RunRecord } from "../../src/results/record.js";

const write = (root: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

const node = (id: number, parentId: number | null, extra: Record<string, unknown> = {}) => ({
  id, parentId, stage: parentId === null ? "draft" : "improve", plan: `plan ${id}`, code: `print(${id})\nprint("x")`, createdAt: `2026-01-01T00:00:0${id}.000Z`,
  termOut: "", execTimeS: 0.5, exitCode: 0, timedOut: false, hasSubmission: true, analysis: "", metric: id / 10, isBug: false, ...extra,
});

describe("the AIDE tree", () => {
  it("orders nodes depth first under their parents, with depths, and cuts long texts", () => {
    const run = tempDir("view-aide-");
    const long = "y".repeat(30_000);
    write(run, "logs/journal.json", JSON.stringify({ lowerIsBetter: false, bestId: 3, nodes: [node(0, null), node(1, null), node(2, 0, { termOut: long }), node(3, 2), node(4, 1, { isBug: true, metric: null })] }));
    const tree = aideTree(run)!;
    expect(tree.best_id).toBe(3);
    expect(tree.lower_is_better).toBe(false);
    expect(tree.nodes.map((n) => [n.id, n.parent_id, n.depth, n.metric, n.is_bug])).toEqual([[0, null, 0, 0, false], [2, 0, 1, 0.2, false], [3, 2, 2, 0.3, false], [1, null, 0, 0.1, false], [4, 1, 1, null, true]]);
    expect(tree.nodes[1]!.term_out).toBe(`${"y".repeat(20_000)}\n… (10000 more characters)`);
    expect(tree.nodes[0]!.code_lines).toBe(2);
  });

  it("survives a cycle, a parent that does not exist and a journal that is not one", () => {
    const run = tempDir("view-aide-bad-");
    write(run, "logs/journal.json", JSON.stringify({ bestId: null, nodes: [node(0, 1), node(1, 0), node(2, 7), { id: "x" }] }));
    // A cycle has no root: its nodes are not reachable, so they are not listed; the orphan becomes a root.
    expect(aideTree(run)!.nodes.map((n) => [n.id, n.depth])).toEqual([[2, 0]]);
    write(run, "logs/journal.json", "{not json");
    expect(aideTree(run)).toBeNull();
    fs.rmSync(path.join(run, "logs", "journal.json"));
    fs.symlinkSync("/etc/passwd", path.join(run, "logs", "journal.json"));
    expect(aideTree(run)).toBeNull();
  });
});

describe("research steps", () => {
  const trace = {
    steps: [
      { step: 0, action: { name: "List Files", args: { dir_path: "." } }, observation: "train.py\n", started: 1767225600, timestamp: 1767225601.5, files: { changed: [], deleted: [], tooLarge: [] } },
      { step: 1, action: { name: "Edit Script (AI)", args: { script_name: "train.py" } }, observation: "edited", started: 1767225602, timestamp: 1767225610, files: { changed: ["train.py"], deleted: ["old.py"], tooLarge: [] } },
    ],
  };
  const history = { history: [{ envStep: 0, entries: { Reflection: " none yet\n", Thought: " look", Action: "List Files", "Action Input": "{}" } }, { envStep: 1, entries: { Reflection: "edit it" } }] };

  it("reads a research run's trace with the reasoning of the agent's latest history file", () => {
    const run = tempDir("view-steps-");
    write(run, "trace/trace.json", JSON.stringify(trace));
    write(run, "logs/agent/agent_0_0.json", JSON.stringify({ history: [{ envStep: 0, entries: { Reflection: "stale" } }] }));
    write(run, "logs/agent/agent_1_1.json", JSON.stringify(history));
    expect(researchSteps(run, "research")).toEqual([
      { step: 0, action: "List Files", args: '{\n  "dir_path": "."\n}', observation: "train.py\n", started: "2026-01-01T00:00:00.000Z", ended: "2026-01-01T00:00:01.500Z", seconds: 1.5, reasoning: { Reflection: "none yet", Thought: "look" }, changed: [], deleted: [] },
      { step: 1, action: "Edit Script (AI)", args: '{\n  "script_name": "train.py"\n}', observation: "edited", started: "2026-01-01T00:00:02.000Z", ended: "2026-01-01T00:00:10.000Z", seconds: 8, reasoning: { Reflection: "edit it" }, changed: ["train.py"], deleted: ["old.py"] },
    ]);
    expect(researchSteps(run, "mle")).toBeNull();
  });

  it("reads an MLE-bench mlab run's trace under logs/mlab, and does not follow a linked agent folder", () => {
    const run = tempDir("view-steps-mle-");
    write(run, "logs/mlab/trace/trace.json", JSON.stringify(trace));
    const elsewhere = tempDir("view-steps-elsewhere-");
    write(elsewhere, "agent_1_1.json", JSON.stringify(history));
    expect(researchSteps(run, "mle")!.map((s) => [s.step, s.reasoning])).toEqual([[0, {}], [1, {}]]);
    write(run, "logs/mlab/agent_1_1.json", JSON.stringify(history));
    expect(researchSteps(run, "mle")!.map((s) => s.reasoning)).toEqual([{ Reflection: "none yet", Thought: "look" }, { Reflection: "edit it" }]);
    const linked = tempDir("view-steps-linked-");
    write(linked, "trace/trace.json", JSON.stringify(trace));
    fs.mkdirSync(path.join(linked, "logs"));
    fs.symlinkSync(elsewhere, path.join(linked, "logs", "agent"));
    expect(researchSteps(linked, "research")!.map((s) => s.reasoning)).toEqual([{}, {}]);
  });

  it("cuts a text and says how much is left out", () => {
    expect(cut("abcdef", 4)).toBe("abcd\n… (2 more characters)");
    expect(cut(null)).toBe("");
    expect(cut({ a: 1 })).toBe('{"a":1}');
  });
});

const record = (over: Partial<RunRecord>): RunRecord => ({
  run_id: "r", competition_id: "titanic", agent_id: "a", seed: 0, status: "completed", exit_reason: "finished", exit_code: 0, exit_signal: null,
  started_at: null, ended_at: null, wall_seconds: 10, attempts: 1,
  sandbox: { backend: "bwrap", limits: {} as never, gpus: [], allow_hosts: [], warnings: [] },
  secret_env: [], peaks: null, output_dropped_bytes: 0, validation_requests: 0, snapshots: [], submission_rejected: null, grading: null,
  ...over,
} as RunRecord);

describe("the timeline", () => {
  it("reads run.json's zoneless local times in the run machine's zone, known from the manifest", () => {
    // The run machine was 2 hours ahead of UTC: it wrote 12:00:10 local when the manifest said 10:00:12Z.
    expect(zoneOffsetMs("2026-01-01T12:00:10.000000", "2026-01-01T10:00:12.000Z")).toBe(7_200_000);
    expect(zoneOffsetMs("2026-01-01T12:00:10Z", "2026-01-01T10:00:12.000Z")).toBeNull();
    expect(zoneOffsetMs(null, "2026-01-01T10:00:12.000Z")).toBeNull();
    const run = tempDir("view-timeline-");
    write(run, "logs/llm.jsonl", JSON.stringify({ time: "2026-01-01T10:00:05.000Z", model: "m", attempts: 1, error: null, usage: { inputTokens: 5, outputTokens: 2 }, costUsd: 0.5, request: { messages: [] } }) + "\n");
    const rec = record({ started_at: "2026-01-01T12:00:00.000000", ended_at: "2026-01-01T12:00:10.000000", snapshots: [{ file: "snapshots/a.csv", elapsed_seconds: 3 }] });
    const manifest = { created_at: "2026-01-01T10:00:12.000Z", validation: { log: [{ time: "2026-01-01T10:00:07.000Z", route: "/validate", status: 200, valid: false, changed_lines: null }] } };
    const tl = buildTimeline({ runDir: run, record: rec, manifest: manifest as never, aide: null, steps: null });
    expect(tl).toEqual({
      truncated: false,
      events: [
        { time: "2026-01-01T10:00:00.000Z", t: 0, kind: "start", label: "run started", ref: null },
        { time: "2026-01-01T10:00:03.000Z", t: 3, kind: "snapshot", label: "snapshot of the submission at 3 s (snapshots/a.csv)", ref: null },
        { time: "2026-01-01T10:00:05.000Z", t: 5, kind: "llm", label: "LLM call 0 (m, 5 → 2 tokens, $0.5000)", ref: "llm/0" },
        { time: "2026-01-01T10:00:07.000Z", t: 7, kind: "validation", label: "validation call /validate: invalid", ref: null },
        { time: "2026-01-01T10:00:10.000Z", t: 10, kind: "end", label: "run ended: finished", ref: null },
      ],
    });
  });
});

describe("snapshot grades", () => {
  it("says why a snapshot is not graded: no data dir, a path outside the run, a link", async () => {
    const run = tempDir("view-snaps-");
    write(run, "snapshots/a.csv", "PassengerId,Survived\n");
    fs.symlinkSync("/etc/passwd", path.join(run, "snapshots", "b.csv"));
    const rec = record({ started_at: "2026-01-01T10:00:00Z", snapshots: [{ file: "snapshots/a.csv", elapsed_seconds: 1 }, { file: "../x.csv", elapsed_seconds: 2 }, { file: "snapshots/b.csv", elapsed_seconds: 3 }] });
    const none = await new SnapshotScorer(null).snapshots(run, rec);
    expect(none.map((s) => [s.time, s.graded, s.note])).toEqual([
      ["2026-01-01T10:00:01.000Z", false, "not graded: start the viewer with --data-dir to grade snapshots"],
      ["2026-01-01T10:00:02.000Z", false, "not graded: start the viewer with --data-dir to grade snapshots"],
      ["2026-01-01T10:00:03.000Z", false, "not graded: start the viewer with --data-dir to grade snapshots"],
    ]);
    const empty = tempDir("view-snaps-data-");
    const graded = await new SnapshotScorer(empty).snapshots(run, rec);
    expect(graded.map((s) => s.note!.split(":").slice(0, 2).join(":"))).toEqual(["not graded: answers not available", "not graded: ../x.csv is not a path inside the run", "not graded: snapshots/b.csv"]);
    expect(graded[2]!.note).toBe("not graded: snapshots/b.csv: a symbolic link, not followed");
  });
});
