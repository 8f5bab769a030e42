#!/usr/bin/env node
// Degenerate submissions: `mlebench grade-sample` on files of BENCH_DEGENERATE_MIB (default 15)
// MiB whose shape, not size, is hostile (one line of commas, a 100,000-column header over short
// rows, 7 million blank lines, a field of doubled quotes, ...), against the reference of an
// ordinary two-column submission of the same size graded in the same run. Prints, per shape,
// the ratio degenerate / reference for time and peak memory (target: at most 3 for both; a
// header of 100,000 columns costs most, each row touching every column's storage).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const cli = path.join(repo, "dist", "cli", "main.js");
const cache = path.join(repo, "bench", ".cache", "degenerate");
const mib = Number(process.env.BENCH_DEGENERATE_MIB ?? 15);
const size = Math.round(mib * 1024 * 1024);
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const python = "/usr/bin/python3";

if (!fs.existsSync(python)) {
  console.error("bench: needs /usr/bin/python3 to measure peak memory");
  process.exit(2);
}

const dataDir = path.join(cache, "data");
if (!fs.existsSync(path.join(dataDir, "titanic", "leaderboard.csv"))) {
  execFileSync(process.execPath, [cli, "prepare", "-c", "titanic", "--data-dir", dataDir], { stdio: "inherit" });
}

const header = (n) => Array.from({ length: n }, (_, j) => `c${j}`).join(",") + "\n";
/** `unit` repeated to about `size` bytes after `head`. */
const fill = (head, unit) => head + unit.repeat(Math.max(0, Math.floor((size - head.length) / unit.length)));

const shapes = {
  "reference: PassengerId,Survived rows": () => fill("PassengerId,Survived\n", "892,1\n"),
  "one line of commas": () => ",".repeat(size),
  "quote characters": () => '"'.repeat(size - (size % 2)),
  "one quoted field of doubled quotes": () => `PassengerId,Survived\n892,"${'""'.repeat(Math.floor((size - 30) / 2))}"\n`,
  "one quoted field with line breaks": () => `PassengerId,Survived\n892,"${"y,\n".repeat(Math.floor((size - 30) / 3))}"\n`,
  "blank lines": () => "\n".repeat(size),
  "carriage returns": () => "\r".repeat(size),
  "NUL bytes": () => Buffer.alloc(size),
  "100,000 columns, rows of 100,000 fields": () => fill(header(100_000), Array(100_000).fill("1").join(",") + "\n"),
  "100,000 columns, one-field rows": () => fill(header(100_000), "1\n"),
  "100,000 duplicate names": () => fill(Array(100_000).fill("a").join(",") + "\n", Array(100_000).fill("1").join(",") + "\n"),
  "first data row of commas": () => "PassengerId,Survived\n" + ",".repeat(size),
  "1,000 columns, sparse first rows": () => header(1000) + "1\n".repeat(600) + "\n".repeat(size),
};

const measure = (cmd) =>
  JSON.parse(execFileSync(python, [path.join(here, "measure.py"), String(repeats), "--", ...cmd], { encoding: "utf8", maxBuffer: 1 << 26 }));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

fs.mkdirSync(cache, { recursive: true });
console.log(`${mib} MiB per file, median of ${repeats} runs of grade-sample (Node start-up included)\n`);
let ref = null;
let worst = 0;
for (const [label, make] of Object.entries(shapes)) {
  const file = path.join(cache, `${label.replace(/[^a-z0-9]+/gi, "-")}-${mib}.csv`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, make());
  const cmd = [process.execPath, cli, "grade-sample", file, "titanic", "--data-dir", dataDir, "--json"];
  // A run that fails (a crash, a heap exhausted) is reported as such rather than measured.
  const probe = spawnSync(cmd[0], cmd.slice(1), { encoding: "utf8", maxBuffer: 1 << 26 });
  if (probe.status !== 0) {
    console.log(`${label}: FAILED with status ${probe.status}: ${(probe.stderr || "").split("\n")[0]}`);
    worst = Infinity;
    continue;
  }
  const m = measure(cmd);
  const reason = JSON.parse(m.stdout).invalid_reason ?? "valid";
  const t = median(m.times);
  if (ref === null) ref = { t, peak: m.peak_rss_mib };
  const tr = t / ref.t;
  const mr = m.peak_rss_mib / ref.peak;
  worst = Math.max(worst, tr, mr);
  console.log(`${label}`);
  console.log(`  ${t.toFixed(3)} s   peak ${m.peak_rss_mib.toFixed(0)} MiB   time ratio ${tr.toFixed(2)}   memory ratio ${mr.toFixed(2)}`);
  console.log(`  ${reason.length > 150 ? reason.slice(0, 150) + "..." : reason}\n`);
}
console.log(`worst ratio against the reference (target: at most 3): ${worst.toFixed(2)}`);
