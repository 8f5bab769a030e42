#!/usr/bin/env node
// Queue overhead: a local redis-server, BENCH_WORKERS `mlebench worker` processes (default 4) and
// BENCH_JOBS no-op runs (default 100: the external agent `true` in the local sandbox). Prints the
// latency from enqueue to start of a job on an idle worker, and the ratio of the group's wall time to
// the ideal measured in the same run (the sum of the jobs' own times divided by the workers).
// BENCH_STORE=s3 publishes the runs into a local S3-compatible server (s3rver) instead of a dir, so the
// mean run time shows what publishing through S3 costs.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const dist = (p) => pathToFileURL(path.join(repo, "dist", p)).href;
const jobs = Number(process.env.BENCH_JOBS ?? 100);
const nWorkers = Number(process.env.BENCH_WORKERS ?? 4);
const probes = Number(process.env.BENCH_PROBES ?? 10);
const storeKind = process.env.BENCH_STORE ?? "fs";
if (storeKind !== "fs" && storeKind !== "s3") {
  console.error('bench: BENCH_STORE must be "fs" or "s3"');
  process.exit(2);
}
const REDIS = "/usr/bin/redis-server";

if (!fs.existsSync(REDIS)) {
  console.error("bench: needs Debian's redis-server (run: sudo bash scripts/setup-system.sh)");
  process.exit(2);
}
if (!fs.existsSync(path.join(repo, "dist", "queue", "producer.js"))) {
  console.error("bench: build first (npm run build)");
  process.exit(2);
}
for (const [name, n] of [["BENCH_JOBS", jobs], ["BENCH_WORKERS", nWorkers], ["BENCH_PROBES", probes]]) {
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`bench: ${name} must be a whole number above 0`);
    process.exit(2);
  }
}

const { Queue } = await import("bullmq");
const { runOnQueue } = await import(dist("queue/producer.js"));
const { parseRedisUrl, connectionOptions } = await import(dist("queue/url.js"));
const { QUEUE_NAME, jobId } = await import(dist("queue/jobs.js"));
const { prepareCompetition } = await import(dist("prepare/prepare.js"));
const { getCompetition } = await import(dist("competitions/registry.js"));
const { openResultStore } = await import(dist("queue/store.js"));

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-bench-queue-"));
const dataDir = path.join(scratch, "data");
let runsDir = path.join(scratch, "runs");
await prepareCompetition(getCompetition("titanic"), dataDir);

let s3server = null;
const workerEnv = { ...process.env };
if (storeKind === "s3") {
  const { default: S3rver } = await import("s3rver");
  s3server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: path.join(scratch, "s3"), configureBuckets: [{ name: "bench" }] });
  const { port: s3port } = await s3server.run();
  // s3rver's built-in key pair; the producer (this process) and the workers read the same variables.
  Object.assign(process.env, { AWS_ENDPOINT_URL: `http://127.0.0.1:${s3port}`, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" });
  Object.assign(workerEnv, process.env);
  runsDir = "s3://bench/runs";
}
const store = await openResultStore(runsDir);

const children = [];
const redis = spawn(REDIS, ["--port", String(port), "--bind", "127.0.0.1", "--dir", scratch, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
children.push(redis);
const url = parseRedisUrl(`redis://127.0.0.1:${port}`);
for (let i = 0; i < 50 && spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.trim() !== "PONG"; i++) {
  await new Promise((r) => setTimeout(r, 100));
}
for (let i = 0; i < nWorkers; i++) {
  children.push(
    spawn(process.execPath, [path.join(repo, "dist", "cli", "main.js"), "worker", "--queue", url.display, "--runs-dir", runsDir, "--data-dir", dataDir, "--sandbox", "local", "--name", `bench-${i + 1}`, "--staging-dir", path.join(scratch, "staging")], { stdio: "ignore", env: workerEnv }),
  );
}
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  void s3server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
};
process.on("exit", cleanup);

const template = {
  agent: { id: "external", cmd: "true" },
  limits: { wallMs: 60_000, memoryBytes: null, pids: null, cpus: null, diskBytes: null, tmpBytes: null, outputBytes: 1 << 20 },
  sandbox: "local",
  gpus: [],
  snapshot_every_ms: null,
  grade: false,
};
const titanic = getCompetition("titanic");
const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(url) });

/** Enqueue a group of `seeds` no-op runs, follow it to its end, and read its jobs' timestamps back from Redis. */
async function group(seeds) {
  const r = await runOnQueue({ url, store, competitions: [titanic], seeds, template, maxAttempts: 1, options: {}, detach: false, progress: false, pollMs: 100 });
  if (r.states.some((s) => s.state !== "completed")) throw new Error(`bench: some runs failed: ${JSON.stringify(r.states.filter((s) => s.state !== "completed").map((s) => s.reason))}`);
  return Promise.all(r.states.map(async (s) => (await queue.getJob(jobId(r.runGroup, s.run_id)))));
}

// Warm-up: every worker has loaded its code and connected before anything is measured.
await group(nWorkers);

const latencies = [];
for (let i = 0; i < probes; i++) {
  const [job] = await group(1);
  latencies.push(job.processedOn - job.timestamp);
}
latencies.sort((a, b) => a - b);

const started = Date.now();
const done = await group(jobs);
const wall = Math.max(...done.map((j) => j.finishedOn)) - Math.min(...done.map((j) => j.timestamp));
const busy = done.reduce((sum, j) => sum + (j.finishedOn - j.processedOn), 0);
const ideal = busy / nWorkers;
await queue.close();

console.log(`queue bench: ${jobs} no-op runs, ${nWorkers} workers (redis-server on 127.0.0.1), results in ${storeKind === "s3" ? "s3rver on 127.0.0.1" : "a local dir"}`);
console.log(`  enqueue -> start on an idle worker: median ${latencies[Math.floor(latencies.length / 2)]} ms, max ${latencies.at(-1)} ms (${probes} probes)`);
console.log(`  mean run time on a worker: ${(busy / jobs).toFixed(0)} ms`);
console.log(`  group wall time: ${(wall / 1000).toFixed(2)} s (follower saw the end after ${((Date.now() - started) / 1000).toFixed(2)} s)`);
console.log(`  ideal (sum of run times / workers): ${(ideal / 1000).toFixed(2)} s`);
console.log(`  ratio wall / ideal: ${(wall / ideal).toFixed(3)}`);
cleanup();
process.exit(0);
