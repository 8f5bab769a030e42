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
    const rows = JSON.parse(r.stdout) as { name: string; status: string; needsDownload: boolean; baseline: number | null; direction: string }[];
    const byName = new Map(rows.map((x) => [x.name, x]));
    for (const name of ["vectorization", "titanic", "spam", "boston-housing", "fashion-mnist"]) {
      expect(byName.get(name)).toMatchObject({ status: "ready", needsDownload: false });
      expect(byName.get(name)!.baseline).not.toBeNull();
    }
    for (const name of ["cifar10", "imdb", "ogbn-arxiv", "clrs", "babylm", "llama-inference"]) {
      expect(byName.get(name)).toMatchObject({ status: "needs-download", needsDownload: true });
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
    const out = JSON.parse(run.stdout) as { groupDir: string; records: { status: string; steps: number }[] };
    expect(out.records).toMatchObject([{ status: "finished", steps: 2 }]);
    expect(fs.existsSync(path.join(out.groupDir, "vectorization-seed0", "trace", "trace.json"))).toBe(true);
    const ev = mlebench(["tasks", "eval", out.groupDir, "--sandbox", "local", "--no-steps", "--data-dir", dataDir, "--json"]);
    expect(ev.status).toBe(0);
    const summary = JSON.parse(ev.stdout);
    expect(summary.tasks).toHaveLength(1);
    // A run time depends on the machine, so the starter is timed again here rather than compared with the record.
    expect(summary.tasks[0]).toMatchObject({ task: "vectorization", runs: 1, errors: 0, unscored: 0, baselineSource: "measured" });
    expect(summary.tasks[0].baseline).toBeGreaterThan(0);
    expect(Number.isFinite(summary.tasks[0].improvement.mean)).toBe(true);
    expect(fs.existsSync(path.join(out.groupDir, "eval", "summary.html"))).toBe(true);
    expect(fs.existsSync(path.join(out.groupDir, "vectorization-seed0", "eval.json"))).toBe(true);
  }, 240_000);
});
