#!/usr/bin/env node
// Measures each research task's baseline by scoring its untouched starter code on this machine, and records
// the result (score, time, machine) in src/mlagentbench/tasks/<name>/baseline.json, which the task loads.
// Usage: npm run build && node scripts/mlagentbench/measure-baselines.mjs [task ...]   (default: every task
// that needs no download). Rebuild afterwards so dist/ carries the new records. Tasks built on an offline
// competition (titanic, spam) prepare that competition's split from its installed dataset package, and their
// score is what the starter train.py's submission.csv earns against the hidden answers.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = path.join(root, "dist", "mlagentbench", "tasks");
if (!fs.existsSync(path.join(dist, "registry.js"))) {
  console.error("dist/mlagentbench/tasks is missing: run `npm run build` first.");
  process.exit(2);
}
const { TASKS, getTask } = await import(path.join(dist, "registry.js"));
const { measureBaseline, saveBaseline } = await import(path.join(dist, "baseline.js"));
const { taskDataDir } = await import(path.join(dist, "types.js"));
const { resolveDataDir } = await import(path.join(root, "dist", "core", "paths.js"));
// Tasks that need a download read it from the data directory (MLEBENCH_DATA_DIR or the default cache).
const dataDir = resolveDataDir();

const wanted = process.argv.slice(2);
const tasks = wanted.length > 0 ? wanted.map((name) => getTask(name)) : TASKS.filter((t) => !t.needsDownload);
for (const task of tasks) {
  process.stdout.write(`${task.name}: measuring the starter code ... `);
  const baseline = await measureBaseline(task, { dataDir: taskDataDir(dataDir, task.name), log: (m) => console.log(m) });
  saveBaseline(path.join(root, "src", "mlagentbench", "tasks", task.name), baseline);
  console.log(`${baseline.score} (${task.direction} is better; ${task.metric}) on ${baseline.machine}`);
}
