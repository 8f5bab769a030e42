import fs from "node:fs";
import path from "node:path";
import { BaselineSchema, type Baseline } from "./types.js";

/** Copy a task's starter files into `workspaceDir` (created if missing), overwriting files of the same name. */
export function copyStarterFiles(filesDir: string, workspaceDir: string): void {
  if (!fs.existsSync(filesDir)) throw new Error(`The task's starter files are missing: ${filesDir} does not exist`);
  fs.mkdirSync(workspaceDir, { recursive: true });
  fs.cpSync(filesDir, workspaceDir, { recursive: true });
}

/** The baseline recorded in `<taskDir>/baseline.json`, or null when none has been measured yet. */
export function loadBaseline(taskDir: string): Baseline | null {
  const file = path.join(taskDir, "baseline.json");
  if (!fs.existsSync(file)) return null;
  const parsed = BaselineSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a valid baseline record: ${parsed.error.message}`);
  return parsed.data;
}
