#!/usr/bin/env node
// Preparation speed and memory: our streaming new-york-city-taxi-fare-prediction preparer (built
// dist/) versus pandas + scikit-learn doing upstream's steps, on the same taxi-shaped train.csv
// (BENCH_ROWS rows, default 5,000,000). Checks that both write byte-identical files and prints
// the ratios ours / reference for wall time and peak RSS. BENCH_REFERENCE=0 runs ours alone
// (for sizes pandas cannot hold in memory, such as Kaggle's 55,423,856 rows). Target, from 5M rows
// up (below that Node's own start-up memory dominates): peak memory at most 0.2× pandas'. Exits 1
// when the target is missed or the outputs differ.
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const rows = Number(process.env.BENCH_ROWS ?? 5_000_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 1);
const withReference = process.env.BENCH_REFERENCE !== "0";
const python = "/usr/bin/python3";
const cache = path.join(repo, "bench", ".cache", "prepare", String(rows));
const NOTES = "GCP-Coupons-Instructions.rtf";
const MEMORY_TARGET = 0.2;

if (!Number.isSafeInteger(rows) || rows <= 9914) {
  console.error("bench: BENCH_ROWS must be an integer above 9914 (the rows held out as the test set)");
  process.exit(2);
}
if (withReference && (!fs.existsSync(python) || spawnSync(python, ["-c", "import pandas, sklearn"]).status !== 0)) {
  console.error("bench: needs Debian's python3-pandas and python3-sklearn (run: sudo bash scripts/setup-system.sh)");
  process.exit(2);
}
if (!fs.existsSync(path.join(repo, "dist", "competitions", "new-york-city-taxi-fare-prediction", "prepare.js"))) {
  console.error("bench: build first (npm run build)");
  process.exit(2);
}

/** Deterministic pseudo-random numbers (mulberry32) so every run prepares the same file. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A train.csv shaped like Kaggle's: keys with a counter suffix, fares in cents, coordinates with
 * 4 to 6 decimals (some zero, some with float32 leftovers), 0.5% of rides without a dropoff.
 */
function makeTrain(file) {
  const rand = rng(55);
  const base = Date.UTC(2009, 0, 1) / 1000;
  const coord = (centre, spread) => {
    const u = rand();
    if (u < 0.02) return "0.0";
    const v = centre + (rand() - 0.5) * spread;
    if (u < 0.05) return String(Math.fround(v));
    const scale = 10 ** (4 + Math.floor(rand() * 3));
    return String(Math.round(v * scale) / scale);
  };
  const fd = fs.openSync(file, "w");
  let buf = "key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,passenger_count\n";
  for (let i = 0; i < rows; i++) {
    const when = new Date((base + Math.floor(rand() * 2e8)) * 1000).toISOString().slice(0, 19).replace("T", " ");
    const fare = String(Math.round(250 + rand() * 5000) / 100);
    const drop = rand() < 0.005 ? "," : `${coord(-73.97, 0.2)},${coord(40.75, 0.2)}`;
    const suffix = String(1 + Math.floor(rand() * 300)).padStart(7 + Math.floor(rand() * 3), "0");
    buf += `${when}.${suffix},${fare},${when} UTC,${coord(-73.97, 0.2)},${coord(40.75, 0.2)},${drop},${Math.floor(rand() * 7)}\n`;
    if (buf.length > 1 << 20) {
      fs.writeSync(fd, buf);
      buf = "";
    }
  }
  fs.writeSync(fd, buf);
  fs.closeSync(fd);
}

function rawDir() {
  const raw = path.join(cache, "raw");
  const train = path.join(raw, "train.csv");
  if (!fs.existsSync(train)) {
    fs.mkdirSync(raw, { recursive: true });
    console.log(`generating ${rows.toLocaleString("en")} rows ...`);
    makeTrain(`${train}.part`);
    fs.renameSync(`${train}.part`, train);
    fs.writeFileSync(path.join(raw, NOTES), "{\\rtf1\\ansi Redeem the coupon code.\\par}\n");
  }
  return raw;
}

/** Fresh public/ and private/ folders for one side. */
function outDirs(side) {
  const root = path.join(cache, side);
  fs.rmSync(root, { recursive: true, force: true });
  const pub = path.join(root, "public");
  const priv = path.join(root, "private");
  fs.mkdirSync(pub, { recursive: true });
  fs.mkdirSync(priv, { recursive: true });
  return { root, pub, priv };
}

function md5(file) {
  const h = crypto.createHash("md5");
  const fd = fs.openSync(file, "r");
  const buf = Buffer.allocUnsafe(1 << 22);
  for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  fs.closeSync(fd);
  return h.digest("hex");
}

function listing(root) {
  const out = {};
  for (const side of ["public", "private"]) {
    for (const f of fs.readdirSync(path.join(root, side)).sort()) out[`${side}/${f}`] = md5(path.join(root, side, f));
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const measure = (cmd) =>
  JSON.parse(execFileSync(python, [path.join(here, "..", "grading", "measure.py"), String(repeats), "--", ...cmd], { encoding: "utf8", maxBuffer: 1 << 26 }));

const raw = rawDir();
const size = fs.statSync(path.join(raw, "train.csv")).size;
console.log(`preparing ${rows.toLocaleString("en")} rows (${(size / 2 ** 20).toFixed(0)} MiB), median of ${repeats} run(s) each (start-up included)\n`);

const ours = outDirs("ours");
const mine = measure([process.execPath, path.join(here, "ours.mjs"), raw, ours.pub, ours.priv]);
console.log(`  mlebench-ts     ${median(mine.times).toFixed(2)} s   peak ${mine.peak_rss_mib.toFixed(0)} MiB`);

if (withReference) {
  const ref = outDirs("reference");
  const theirs = measure([python, path.join(here, "reference.py"), raw, ref.pub, ref.priv]);
  console.log(`  pandas+sklearn  ${median(theirs.times).toFixed(2)} s   peak ${theirs.peak_rss_mib.toFixed(0)} MiB`);
  const memoryRatio = mine.peak_rss_mib / theirs.peak_rss_mib;
  console.log(
    `  time ratio (ours / reference): ${(median(mine.times) / median(theirs.times)).toFixed(3)}   memory ratio: ${memoryRatio.toFixed(3)}`,
  );
  if (rows < 5_000_000) console.log(`  memory target (≤ ${MEMORY_TARGET}×) applies from 5,000,000 rows`);
  else {
    const ok = memoryRatio <= MEMORY_TARGET;
    console.log(`  memory target ≤ ${MEMORY_TARGET}×: ${ok ? "ok" : "MISSED"}`);
    if (!ok) process.exitCode = 1;
  }
  const a = listing(ours.root);
  const b = listing(ref.root);
  const same = JSON.stringify(a) === JSON.stringify(b);
  console.log(`\n  outputs byte-identical (md5 of ${Object.keys(b).length} files): ${same ? "yes" : "NO"}`);
  if (!same) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) console.log(`    differs: ${k}`);
    process.exitCode = 1;
  }
  fs.rmSync(ref.root, { recursive: true, force: true });
}
fs.rmSync(ours.root, { recursive: true, force: true });
