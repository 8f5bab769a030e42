#!/usr/bin/env node
// The README's offline table: every offline competition with its reference population (entries,
// best, gold, median) and how the demo's agents score on it, from docs/offline-calibration.json.
//   node scripts/offline/calibration.mjs [--from-demo <demo_report.json> [--command "<how it ran>"] [--merge]] [--check]
// --from-demo first records the runs of a demo report (e.g. `mlebench demo --split offline --seeds 3`)
// as the calibration; with --merge it replaces only the competitions that report ran and keeps the
// others' runs (e.g. after `mlebench demo -c <new id> --seeds 3`). --check exits 1 when the README's
// table is out of date instead of writing it.
// Needs the build (npm run build).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { calibrationFromDemo, calibrationTable, summarizeCalibration, withTable, Calibration } = await import(path.join(root, "dist/demo/calibration.js"));
const { competitionsInSplit } = await import(path.join(root, "dist/competitions/registry.js"));
const { writeFileAtomic } = await import(path.join(root, "dist/core/atomic.js"));

const { values: flags } = parseArgs({
  options: { "from-demo": { type: "string" }, command: { type: "string" }, merge: { type: "boolean" }, check: { type: "boolean" } },
});
const calibrationFile = path.join(root, "docs", "offline-calibration.json");
const readme = path.join(root, "README.md");

if (flags["from-demo"]) {
  const report = JSON.parse(fs.readFileSync(flags["from-demo"], "utf8"));
  const previous = flags.merge ? Calibration.parse(JSON.parse(fs.readFileSync(calibrationFile, "utf8"))) : undefined;
  const ids = [...new Set(report.rows.map((r) => r.competition_id))];
  const seeds = new Set(report.rows.map((r) => r.seed)).size;
  const command = flags.command ?? `mlebench demo ${flags.merge ? `-c ${ids.join(" ")}` : "--split offline"} --seeds ${seeds}`;
  const cal = calibrationFromDemo(report, command, previous);
  writeFileAtomic(calibrationFile, JSON.stringify(cal, null, 2) + "\n");
  console.log(`recorded ${report.rows.length} runs of ${ids.length} competition(s) in ${path.relative(root, calibrationFile)} (${cal.runs.length} in all)`);
}
const cal = Calibration.parse(JSON.parse(fs.readFileSync(calibrationFile, "utf8")));
const table = calibrationTable(summarizeCalibration(cal, competitionsInSplit("offline"), ["baseline", "dummy"]));
const before = fs.readFileSync(readme, "utf8");
const after = withTable(before, table, "README.md");
if (flags.check) {
  if (after !== before) {
    console.error("README.md's offline table is out of date: node scripts/offline/calibration.mjs");
    process.exit(1);
  }
  console.log("README.md's offline table is up to date");
} else if (after !== before) {
  writeFileAtomic(readme, after);
  console.log("wrote README.md's offline table");
} else {
  console.log("README.md's offline table is up to date");
}
