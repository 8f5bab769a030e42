#!/usr/bin/env node
// Copy each competition's data files (description.md, leaderboard.csv, checksums.json) and agents' Python programs next to
// the compiled code, so the built package finds them beside its modules.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const src = path.join(root, "src", "competitions");
const dst = path.join(root, "dist", "competitions");
let copied = 0;
// The upstream catalog (catalog.json) sits beside the registry, not in a competition folder.
for (const file of fs.readdirSync(src)) {
  if (!file.endsWith(".json")) continue;
  fs.mkdirSync(dst, { recursive: true });
  fs.copyFileSync(path.join(src, file), path.join(dst, file));
  copied++;
}
for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  for (const file of fs.readdirSync(path.join(src, entry.name))) {
    if (!/\.(md|csv|json)$/.test(file)) continue;
    fs.mkdirSync(path.join(dst, entry.name), { recursive: true });
    fs.copyFileSync(path.join(src, entry.name, file), path.join(dst, entry.name, file));
    copied++;
  }
}
console.log(`copied ${copied} competition data files to dist/competitions`);

// The baseline agent's Python program travels with its module.
const agents = path.join(root, "src", "agents");
for (const entry of fs.readdirSync(agents, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  for (const file of fs.readdirSync(path.join(agents, entry.name))) {
    if (!file.endsWith(".py")) continue;
    fs.mkdirSync(path.join(root, "dist", "agents", entry.name), { recursive: true });
    fs.copyFileSync(path.join(agents, entry.name, file), path.join(root, "dist", "agents", entry.name, file));
  }
}

// Research tasks carry starter files, evaluator programs and recorded baselines beside their modules.
const tasksSrc = path.join(root, "src", "mlagentbench", "tasks");
if (fs.existsSync(tasksSrc)) {
  fs.cpSync(tasksSrc, path.join(root, "dist", "mlagentbench", "tasks"), {
    recursive: true,
    filter: (file) => !file.includes("__pycache__") && (fs.statSync(file).isDirectory() || !file.endsWith(".ts")),
  });
}

// The CLI entry is run directly (`npx mlebench`, the package's bin), and tsc writes new files without the executable bit.
fs.chmodSync(path.join(root, "dist", "cli", "main.js"), 0o755);
