#!/usr/bin/env node
// CLI start-up: whole-process wall time of `mlebench --version`, `--help` and `list` against
// `node -e 0` measured in the same run, interleaved so machine load hits all of them alike.
// Targets: --version and --help at most 2× `node -e 0`; `list` (all, and --split offline) at most
// 0.3 s. `run --help` and `tasks --help` are shown for information. BENCH_REPEATS (default 15)
// runs each; medians are compared. Exits 1 when a target is missed; --json prints the figures.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = path.join(repo, "dist", "cli", "main.js");
const repeats = Number(process.env.BENCH_REPEATS ?? 15);
const json = process.argv.includes("--json");
if (!fs.existsSync(cli)) {
  console.error(`bench: ${cli} is missing; run npm run build first`);
  process.exit(2);
}
// An empty data dir: list must not depend on what happens to be prepared on this machine.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-startup-"));

const cases = [
  { name: "node -e 0", argv: ["-e", "0"] },
  { name: "mlebench --version", argv: [cli, "--version"], ratioTarget: 2 },
  { name: "mlebench --help", argv: [cli, "--help"], ratioTarget: 2 },
  { name: "mlebench list", argv: [cli, "list", "--data-dir", dataDir], secondsTarget: 0.3 },
  { name: "mlebench list --split offline", argv: [cli, "list", "--split", "offline", "--data-dir", dataDir], secondsTarget: 0.3 },
  { name: "mlebench run --help", argv: [cli, "run", "--help"] },
  { name: "mlebench tasks --help", argv: [cli, "tasks", "--help"] },
];

const times = cases.map(() => []);
for (let k = 0; k < repeats; k++) {
  cases.forEach((c, i) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, c.argv, { encoding: "utf8", env: { ...process.env, MLEBENCH_DATA_DIR: dataDir } });
    times[i].push(Number(process.hrtime.bigint() - t0) / 1e9);
    if (r.status !== 0) {
      console.error(`bench: ${c.name} exited ${r.status}: ${r.stderr}`);
      process.exit(2);
    }
  });
}
fs.rmSync(dataDir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const reference = median(times[0]);
const rows = cases.map((c, i) => {
  const seconds = median(times[i]);
  const ratio = seconds / reference;
  const target = c.ratioTarget !== undefined ? `≤ ${c.ratioTarget}× node` : c.secondsTarget !== undefined ? `≤ ${c.secondsTarget} s` : null;
  const ok = c.ratioTarget !== undefined ? ratio <= c.ratioTarget : c.secondsTarget !== undefined ? seconds <= c.secondsTarget : null;
  return { name: c.name, seconds, ratio, target, ok };
});
const missed = rows.filter((r) => r.ok === false);

if (json) {
  process.stdout.write(JSON.stringify({ repeats, cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? null, rows }, null, 2) + "\n");
} else {
  console.log(`median of ${repeats} runs each, whole process (${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"})\n`);
  console.log(`${"command".padEnd(32)} ${"seconds".padStart(8)} ${"× node".padStart(8)}  target`);
  for (const r of rows) {
    const verdict = r.ok === null ? "" : r.ok ? "  ok" : "  MISSED";
    console.log(`${r.name.padEnd(32)} ${r.seconds.toFixed(3).padStart(8)} ${r.ratio.toFixed(2).padStart(8)}  ${r.target ?? "-"}${verdict}`);
  }
  if (missed.length > 0) console.log(`\nmissed: ${missed.map((r) => r.name).join(", ")}`);
}
process.exit(missed.length > 0 ? 1 : 0);
