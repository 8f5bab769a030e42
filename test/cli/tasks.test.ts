import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/data-dir.js";
import { mlebench } from "../helpers/cli.js";

describe("mlebench tasks", () => {
  it("lists every task with its status; download tasks say they need a download", () => {
    const dataDir = tempDir("mlab-cli-data-");
    const r = mlebench(["tasks", "list", "--json", "--data-dir", dataDir]);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; status: string; needs_download: boolean; baseline: number | null; direction: string }[];
    expect(Object.keys(rows[0]!)).toEqual(["name", "metric", "direction", "improvement_of", "baseline", "status", "needs_download", "read_only"]);
    const byName = new Map(rows.map((x) => [x.name, x]));
    for (const name of ["vectorization", "titanic", "spam", "boston-housing", "fashion-mnist"]) {
      expect(byName.get(name)).toMatchObject({ status: "ready", needs_download: false });
      expect(byName.get(name)!.baseline).not.toBeNull();
    }
    for (const name of ["cifar10", "imdb", "ogbn-arxiv", "clrs", "babylm", "llama-inference"]) {
      expect(byName.get(name)).toMatchObject({ status: "needs-download", needs_download: true });
    }
    expect(byName.get("vectorization")!.direction).toBe("lower");
    const text = mlebench(["tasks", "list", "--data-dir", dataDir]);
    expect(text.stdout).toMatch(/^cifar10\s+needs-download\s+higher/m);
  });

  it("refuses what it cannot do with exit 2 and a clear message", () => {
    const dataDir = tempDir("mlab-cli-data-");
    const noModel = mlebench(["tasks", "run", "-t", "vectorization", "--sandbox", "local", "--data-dir", dataDir], { MLEBENCH_LLM_MODEL: "" });
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toContain("--agent mlab needs a model");
    const notReady = mlebench(["tasks", "run", "-t", "cifar10", "--agent", "baseline", "--sandbox", "local", "--data-dir", dataDir]);
    expect(notReady.status).toBe(2);
    expect(notReady.stderr).toContain(`task cifar10 needs its data: run \`mlebench tasks prepare cifar10 --data-dir ${dataDir}\` first`);
    const unknown = mlebench(["tasks", "run", "-t", "no-such-task", "--agent", "baseline"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown research task "no-such-task"');
    const nothing = mlebench(["tasks", "prepare", "vectorization", "--data-dir", dataDir]);
    expect(nothing.status).toBe(0);
    expect(nothing.stdout).toBe("vectorization: nothing to download (its data ships with the installed packages)\n");
    const missingGroup = mlebench(["tasks", "eval", path.join(dataDir, "nope"), "--sandbox", "local"]);
    expect(missingGroup.status).toBe(2);
  });

  it("runs the baseline agent on a task and evaluates the group", () => {
    const runsDir = tempDir("mlab-cli-runs-");
    const dataDir = tempDir("mlab-cli-data-");
    const run = mlebench(["tasks", "run", "-t", "vectorization", "--agent", "baseline", "--sandbox", "local", "--runs-dir", runsDir, "--data-dir", dataDir, "--json"]);
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { group_dir: string; records: { status: string; steps: number }[] };
    expect(Object.keys(out)).toEqual(["group_dir", "records"]);
    expect(out.records).toMatchObject([{ status: "finished", steps: 2 }]);
    expect(fs.existsSync(path.join(out.group_dir, "vectorization-seed0", "trace", "trace.json"))).toBe(true);
    const ev = mlebench(["tasks", "eval", out.group_dir, "--sandbox", "local", "--no-steps", "--data-dir", dataDir, "--json"]);
    expect(ev.status).toBe(0);
    const summary = JSON.parse(ev.stdout);
    expect(summary.tasks).toHaveLength(1);
    // A run time depends on the machine, so the starter is timed again here rather than compared with the record.
    expect(summary).toMatchObject({ schema: "mlagentbench-eval-summary/1", group_dir: out.group_dir, group_error: null });
    expect(summary.tasks[0]).toMatchObject({ task: "vectorization", runs: 1, errors: 0, unscored: 0, baseline_source: "measured" });
    expect(summary.tasks[0].baseline).toBeGreaterThan(0);
    expect(Number.isFinite(summary.tasks[0].improvement.mean)).toBe(true);
    expect(fs.existsSync(path.join(out.group_dir, "eval", "summary.html"))).toBe(true);
    const evalJson = JSON.parse(fs.readFileSync(path.join(out.group_dir, "vectorization-seed0", "eval.json"), "utf8"));
    expect(evalJson).toMatchObject({ schema: "mlagentbench-eval/1", status: "finished", final_error: null, baseline_source: "measured" });
    expect(typeof evalJson.final_score).toBe("number");
  }, 240_000);
});
