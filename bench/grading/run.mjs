#!/usr/bin/env node
// Grading speed and memory: `mlebench grade-sample` end to end from the CLI versus pandas
// read_csv + scikit-learn (or upstream's own Python metric) on the same files, both including
// interpreter start-up. BENCH_ROWS (default 1,000,000) sizes the numeric and text cases;
// BENCH_MAP_ROWS (default BENCH_ROWS) the h-and-m MAP@12 case, whose rows hold 12 article ids
// each (10,000,000 rows is about 1.6 GB per file). Prints the ratio ours / reference for time and
// peak memory; targets: time at most 0.25×, memory at most 0.5×, scores equal. Exits 1 when one is
// missed. BENCH_CASES (a comma list of auc, rmse, text-accuracy, map12) picks cases; with
// BENCH_REFERENCE=0 only ours runs (pandas needs about 20 GB for 10M MAP@12 rows), and the check
// is that grading succeeds in Node's default heap.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const cache = path.join(repo, "bench", ".cache", "grading");
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const mapRows = Number(process.env.BENCH_MAP_ROWS ?? rows);
const repeats = Number(process.env.BENCH_REPEATS ?? 5);
const python = "/usr/bin/python3";
const chosen = process.env.BENCH_CASES ? new Set(process.env.BENCH_CASES.split(",")) : null;
const withReference = process.env.BENCH_REFERENCE !== "0";

if (!fs.existsSync(python) || spawnSync(python, ["-c", "import pandas, sklearn"]).status !== 0) {
  console.error("bench: needs Debian's python3-pandas and python3-sklearn (run: sudo bash scripts/setup-system.sh)");
  process.exit(2);
}

/** Deterministic pseudo-random numbers (mulberry32) so every run grades the same files. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Write a CSV in chunks so generation never builds one giant string. */
function writeCsv(file, header, n, row) {
  const fd = fs.openSync(file, "w");
  let buf = header + "\n";
  for (let i = 0; i < n; i++) {
    buf += row(i) + "\n";
    if (buf.length > 1 << 20) {
      fs.writeSync(fd, buf);
      buf = "";
    }
  }
  fs.writeSync(fd, buf);
  fs.closeSync(fd);
}

function shuffled(n, rand) {
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx;
}

function prepare(id, answersName, make, n = rows) {
  const dir = path.join(cache, `${n}`, id);
  const dataDir = path.dirname(dir);
  const answers = path.join(dir, "prepared", "private", answersName);
  const submission = path.join(dir, "submission.csv");
  if (!fs.existsSync(submission)) {
    fs.mkdirSync(path.dirname(answers), { recursive: true });
    fs.mkdirSync(path.join(dir, "prepared", "public"), { recursive: true });
    make(answers, submission);
    writeCsv(path.join(dir, "leaderboard.csv"), "teamName,score", 500, (i) => `t${i},${(1 - i / 1000).toFixed(5)}`);
  }
  return { dataDir, answers, submission };
}

const cases = [
  {
    label: "ROC AUC (aerial-cactus-identification)",
    id: "aerial-cactus-identification",
    kind: "auc",
    files: () => prepare("aerial-cactus-identification", "test.csv", (answers, submission) => {
      const rand = rng(1);
      const ids = Array.from({ length: rows }, (_, i) => `${(i * 2654435761 >>> 0).toString(16).padStart(8, "0")}${i.toString(16).padStart(24, "0")}.jpg`);
      const truth = ids.map(() => (rand() < 0.75 ? 1 : 0));
      writeCsv(answers, "id,has_cactus", rows, (i) => `${ids[i]},${truth[i]}`);
      const order = shuffled(rows, rand);
      writeCsv(submission, "id,has_cactus", rows, (k) => {
        const i = order[k];
        return `${ids[i]},${Math.min(1, Math.max(0, truth[i] * 0.5 + rand() * 0.6))}`;
      });
    }),
  },
  {
    label: "RMSE (new-york-city-taxi-fare-prediction)",
    id: "new-york-city-taxi-fare-prediction",
    kind: "rmse",
    files: () => prepare("new-york-city-taxi-fare-prediction", "test.csv", (answers, submission) => {
      const rand = rng(2);
      const base = Date.UTC(2013, 0, 1);
      const keys = Array.from({ length: rows }, (_, i) =>
        `${new Date(base + Math.floor(rand() * 2e11)).toISOString().slice(0, 19).replace("T", " ")}.${String(i).padStart(7, "0")}`);
      const fares = keys.map(() => Math.round((2.5 + rand() * 40) * 100) / 100);
      writeCsv(answers, "key,fare_amount", rows, (i) => `${keys[i]},${fares[i]}`);
      const order = shuffled(rows, rand);
      writeCsv(submission, "key,fare_amount", rows, (k) => `${keys[order[k]]},${fares[order[k]] + (rand() - 0.5) * 6}`);
    }),
  },
  {
    label: "text accuracy (text-normalization-challenge-english-language)",
    id: "text-normalization-challenge-english-language",
    kind: "text-accuracy",
    files: () => prepare("text-normalization-challenge-english-language", "answers.csv", (answers, submission) => {
      const rand = rng(3);
      const words = ["one", "two hundred", "the", "sil", "january first", "m r", "a", "\"quoted, text\"", "ten percent", "self"];
      const ids = Array.from({ length: rows }, (_, i) => `${Math.floor(i / 20)}_${i % 20}`);
      const truth = ids.map(() => words[Math.floor(rand() * words.length)]);
      writeCsv(answers, "id,after", rows, (i) => `${ids[i]},${truth[i]}`);
      const order = shuffled(rows, rand);
      writeCsv(submission, "id,after", rows, (k) => {
        const i = order[k];
        return `${ids[i]},${rand() < 0.9 ? truth[i] : words[Math.floor(rand() * words.length)]}`;
      });
    }),
  },
  {
    label: "MAP@12 (h-and-m-personalized-fashion-recommendations)",
    id: "h-and-m-personalized-fashion-recommendations",
    kind: "map12",
    rows: mapRows,
    files: () => prepare("h-and-m-personalized-fashion-recommendations", "answers.csv", (answers, submission) => {
      const rand = rng(4);
      const article = () => 100000000 + Math.floor(rand() * 900000000);
      // Ids computed from the row number, so nothing of size n is held but two typed arrays.
      const mix = (i) => (Math.imul(i ^ 0x5bd1e995, 2654435761) >>> 0).toString(16).padStart(8, "0");
      const customer = (i) => `${mix(i)}${mix(i + 7919)}${i.toString(16).padStart(48, "0")}`;
      const bought = new Uint32Array(mapRows);
      writeCsv(answers, "customer_id,prediction", mapRows, (i) => {
        const list = Array.from({ length: 1 + Math.floor(rand() * 4) }, article);
        bought[i] = list[0];
        return `${customer(i)},${list.map((a) => `0${a}`).join(" ")}`;
      });
      const order = new Uint32Array(mapRows).map((_, i) => i);
      for (let i = mapRows - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      writeCsv(submission, "customer_id,prediction", mapRows, (k) => {
        const i = order[k];
        const guesses = Array.from({ length: 12 }, article);
        if (rand() < 0.3) guesses[Math.floor(rand() * 12)] = bought[i];
        return `${customer(i)},${guesses.map((a) => `0${a}`).join(" ")}`;
      });
    }, mapRows),
  },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const measure = (cmd) => JSON.parse(execFileSync(python, [path.join(here, "measure.py"), String(repeats), "--", ...cmd], { encoding: "utf8", maxBuffer: 1 << 26 }));

const TIME_TARGET = 0.25;
const MEMORY_TARGET = 0.5;
const missed = [];
let worst = 0;
console.log(`median of ${repeats} runs each (interpreter start-up included)\n`);
for (const c of cases) {
  if (chosen && !chosen.has(c.kind)) continue;
  const files = c.files();
  const ours = measure([process.execPath, path.join(repo, "dist", "cli", "main.js"), "grade-sample", files.submission, c.id, "--data-dir", files.dataDir, "--json"]);
  const ourReport = JSON.parse(ours.stdout);
  const ourScore = ourReport.score;
  console.log(`${c.label}: ${(c.rows ?? rows).toLocaleString("en")} rows`);
  console.log(`  mlebench-ts   ${median(ours.times).toFixed(3)} s   peak ${ours.peak_rss_mib.toFixed(0)} MiB   score ${ourScore}`);
  if (!withReference) {
    // Nothing to compare with: the check is that it graded, in Node's default heap.
    const ok = ourReport.valid_submission === true && typeof ourScore === "number";
    console.log(`  graded without a reference: ${ok ? "ok" : "MISSED"}\n`);
    if (!ok) missed.push(`${c.id} graded`);
    continue;
  }
  const ref = measure([python, path.join(here, "reference.py"), c.kind, files.submission, files.answers]);
  const refScore = Number(ref.stdout.trim());
  const ratio = median(ours.times) / median(ref.times);
  worst = Math.max(worst, Math.max(...ours.times) / Math.min(...ref.times));
  console.log(`  pandas+sklearn ${median(ref.times).toFixed(3)} s   peak ${ref.peak_rss_mib.toFixed(0)} MiB   score ${refScore}`);
  const memory = ours.peak_rss_mib / ref.peak_rss_mib;
  const verdict = (ok) => (ok ? "ok" : "MISSED");
  console.log(`  time ratio (ours / reference): ${ratio.toFixed(3)} (≤ ${TIME_TARGET}: ${verdict(ratio <= TIME_TARGET)})   memory ratio: ${memory.toFixed(3)} (≤ ${MEMORY_TARGET}: ${verdict(memory <= MEMORY_TARGET)})`);
  if (ratio > TIME_TARGET) missed.push(`${c.id} time`);
  if (memory > MEMORY_TARGET) missed.push(`${c.id} memory`);
  if (ourScore !== refScore) {
    console.log(`  SCORE MISMATCH: ${ourScore} vs ${refScore}`);
    missed.push(`${c.id} score`);
  }
  console.log("");
}
if (withReference) console.log(`slowest of ours vs fastest reference run: ${worst.toFixed(3)}`);
if (missed.length > 0) {
  console.log(`missed: ${missed.join(", ")}`);
  process.exitCode = 1;
}
