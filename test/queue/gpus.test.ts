import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { FsResultStore } from "../../src/queue/fs-store.js";
import { runOnQueue } from "../../src/queue/producer.js";
import { parseRedisUrl } from "../../src/queue/url.js";
import { startRunWorker, type RunWorker } from "../../src/queue/worker.js";
import { GpuPool } from "../../src/runner/gpu-pool.js";
import { limitsFromFlags } from "../../src/sandbox/limits.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir } from "../helpers/runs.js";
import { startRedis, type TestRedis } from "./redis.js";

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe("a worker sharing its GPUs out (--gpus-per-run)", () => {
  it("gives each of its two runs at once one of its two GPUs, whatever the job asked for", async () => {
    const dataDir = await titanicDataDir();
    const store = new FsResultStore(tempDir("mlebench-qruns-"));
    const url = parseRedisUrl(redis.url);
    const worker: RunWorker = startRunWorker({
      url, store, dataDir, concurrency: 2, gpus: [0, 1], gpuPool: new GpuPool([0, 1], 1), sandbox: "local",
      lockMs: 30_000, stalledMs: 30_000, name: "gpu-box", log: () => {},
    });
    try {
      const r = await runOnQueue({
        url, store, competitions: [getCompetition("titanic")], seeds: 4, maxAttempts: 1, options: {}, detach: false, progress: false, pollMs: 100,
        template: { agent: { id: "external", cmd: "sleep 1" }, limits: limitsFromFlags({ timeLimit: "1m" }), sandbox: "local", gpus: [5, 6], snapshot_every_ms: null, grade: false },
      });
      expect(r.states.map((s) => s.state)).toEqual(["completed", "completed", "completed", "completed"]);
      const shares = r.states.map((s) => s.record!.sandbox.gpus);
      expect(shares.every((g) => g.length === 1 && (g[0] === 0 || g[0] === 1))).toBe(true);
      expect(new Set(shares.map((g) => g[0]))).toEqual(new Set([0, 1]));
    } finally {
      await worker.stop();
    }
  });
});
