import { describe, expect, it } from "vitest";
import { resolveAgent } from "../../src/agents/registry.js";
import { getCompetition } from "../../src/competitions/registry.js";
import { GpuPool, gpuPool } from "../../src/runner/gpu-pool.js";
import { RunGroup } from "../../src/runner/group.js";
import { limitsFromFlags } from "../../src/sandbox/limits.js";
import { getSandboxBackend } from "../../src/sandbox/registry.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir } from "../helpers/runs.js";

describe("GpuPool", () => {
  it("hands out the lowest free GPUs and takes them back", () => {
    const pool = new GpuPool([3, 1, 2, 0], 2);
    const a = pool.take();
    const b = pool.take();
    expect([a, b]).toEqual([[0, 1], [2, 3]]);
    expect(() => pool.take()).toThrow("no 2 free GPUs (free: none)");
    pool.give(b);
    expect(pool.take()).toEqual([2, 3]);
  });

  it("refuses --gpus-per-run without GPUs, larger than the list, or with more runs at once than shares", () => {
    expect(gpuPool([0, 1], undefined, 8, "--workers")).toBeNull();
    expect(() => gpuPool([], 1, 1, "--workers")).toThrow("--gpus-per-run needs --gpus <list> to share out");
    expect(() => gpuPool([0, 1], 3, 1, "--workers")).toThrow("--gpus-per-run 3: --gpus gives only 2 GPU(s)");
    expect(() => gpuPool([0, 1, 2], 2, 2, "--concurrency")).toThrow(
      "--concurrency 2 runs at once need 4 GPUs at 2 per run, but --gpus gives 3; use --concurrency 1 or fewer",
    );
    expect(gpuPool([0, 1, 2, 3], 2, 2, "--workers")?.perRun).toBe(2);
  });
});

describe("a run group sharing GPUs out", () => {
  it("gives each of two runs going on at once its own pair of four GPUs", async () => {
    const dataDir = await titanicDataDir();
    const settings = {
      agent: resolveAgent({ id: "external", cmd: "sleep 1" }),
      backend: getSandboxBackend("local"),
      dataDir,
      limits: limitsFromFlags({ timeLimit: "1m" }),
      gpus: [0, 1, 2, 3],
      snapshotEveryMs: null,
      grade: false,
    };
    const group = new RunGroup({
      settings, competitions: [getCompetition("titanic")], seeds: 4, workers: 2, runsDir: tempDir("mlebench-gpuruns-"), gpuPool: gpuPool([0, 1, 2, 3], 2, 2, "--workers"),
    });
    const { records } = await group.run();
    expect(records.map((r) => r.status)).toEqual(["completed", "completed", "completed", "completed"]);
    const shares = records.map((r) => r.sandbox.gpus.join(","));
    expect(shares.every((s) => s === "0,1" || s === "2,3")).toBe(true);
    expect(new Set(shares)).toEqual(new Set(["0,1", "2,3"]));
    // Runs that overlapped in time never held the same GPU.
    const span = (r: (typeof records)[number]) => [Date.parse(`${r.started_at}Z`), Date.parse(`${r.ended_at}Z`)];
    let overlaps = 0;
    for (const a of records) {
      for (const b of records) {
        const [a0, a1] = span(a);
        const [b0, b1] = span(b);
        if (a === b || !(a0 < b1 && b0 < a1)) continue;
        overlaps++;
        expect(a.sandbox.gpus).not.toEqual(b.sandbox.gpus);
      }
    }
    expect(overlaps).toBeGreaterThan(0);
  });
});
