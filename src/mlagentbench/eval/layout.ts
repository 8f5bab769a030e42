/** Where a run keeps its files, run folder names, and trace.json read and checked (run.json and group.json are read by results/research-record.ts and results/research-group.ts). */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const FilesSchema = z.object({
  changed: z.array(z.string()),
  deleted: z.array(z.string()),
  tooLarge: z.array(z.string()),
});

export const TraceRecordSchema = z.object({
  read_only_files: z.array(z.string()).default([]),
  steps: z.array(
    z.object({
      step: z.number().int().nonnegative(),
      action: z.object({ name: z.string(), args: z.unknown() }),
      files: FilesSchema,
    }),
  ),
});
/** The parts of `<run>/trace/trace.json` evaluation needs. */
export type TraceRecord = z.infer<typeof TraceRecordSchema>;

/** Where a run keeps its record, final workspace and trace. */
export const runPaths = (runDir: string) => ({
  record: path.join(runDir, "run.json"),
  workspace: path.join(runDir, "workspace"),
  trace: path.join(runDir, "trace", "trace.json"),
  snapshots: path.join(runDir, "trace", "snapshots"),
  eval: path.join(runDir, "eval.json"),
});

/** The folder name of the run of `task` with `seed` inside a group: `<task>-seed<k>`. */
export function runDirName(task: string, seed: number): string {
  return `${task}-seed${seed}`;
}

/** Task and seed from a run folder name `<task>-seed<k>`, or null when the name is not of that form. */
export function parseRunDirName(name: string): { task: string; seed: number } | null {
  const m = /^(.+)-seed(\d+)$/.exec(name);
  return m ? { task: m[1], seed: Number(m[2]) } : null;
}

/** Read `file` as JSON and check it against `schema`; the error names the file and the offending field. */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (e as Error).message;
    throw new Error(`Cannot read ${what} ${file}: ${reason}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`).join("; ");
    throw new Error(`${file} is not a valid ${what}: ${issues}`);
  }
  return parsed.data;
}

/** Check that every path a trace lists stays inside the workspace, so replaying it cannot touch other files. */
export function checkTracePaths(trace: TraceRecord, file: string): void {
  trace.steps.forEach((s, i) => {
    if (s.step !== i) throw new Error(`${file}: steps[${i}] has step number ${s.step}, expected ${i}`);
    for (const [kind, list] of Object.entries(s.files)) {
      for (const rel of list) {
        const norm = path.posix.normalize(rel);
        if (rel === "" || path.posix.isAbsolute(rel) || norm !== rel || norm === ".." || norm.startsWith("../")) {
          throw new Error(`${file}: steps[${i}].files.${kind} lists "${rel}", expected a normalised path inside the workspace`);
        }
      }
    }
  });
}

/** Read and check `<run>/trace/trace.json`. */
export function readTrace(runDir: string): TraceRecord {
  const file = runPaths(runDir).trace;
  const trace = readJsonFile(file, TraceRecordSchema, "trace");
  checkTracePaths(trace, file);
  return trace;
}
