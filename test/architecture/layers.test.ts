// The folders of src/ form layers: a module imports from its own folder or from folders of lower
// layers only, so no folder depends on one above it and there is no import cycle between folders.
// A new folder goes into LAYERS; an import that breaks the order fails here with its file and line.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = decodeURIComponent(new URL("../../src/", import.meta.url).pathname);

/** Lowest first. What each layer is for, in one line. */
const LAYERS: [string[], string][] = [
  [["core"], "errors, tables, competitions' shape, durations, atomic writes, retries"],
  [["pycompat", "rng", "present"], "Python/pandas/numpy semantics; Python's and numpy's generators; numbers and charts for people"],
  [["io", "metrics", "llm", "sandbox", "sources"], "files and formats; metrics; the LLM client; isolation; where data comes from"],
  [["grading", "prepare", "results"], "grading a submission; preparing a split; the records runs write (run.json, metadata.json, research runs' run.json)"],
  [["competitions"], "one folder per competition"],
  [["mlagentbench"], "research tasks, their environment and research agent"],
  [["agents"], "the agents MLE-bench runs"],
  [["runner"], "a run and a run group"],
  [["integrity", "queue", "bundle"], "checks on finished runs; runs spread over machines; result bundles and their verification"],
  [["report"], "tables and reports"],
  [["view"], "the viewer of run groups (it shows what the report computes)"],
  [["doctor"], "checks of the machine"],
  [["demo"], "the offline benchmark end to end"],
  [["cli"], "commands"],
];
const RANK = new Map(LAYERS.flatMap(([folders], i) => folders.map((f) => [f, i] as const)));

/** Every .ts file under src/. */
function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Relative imports of a file (static, type-only, re-exports and dynamic), with their line numbers. */
function relativeImports(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = [];
  const pattern = /\b(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm;
  for (const m of text.matchAll(pattern)) {
    out.push({ spec: (m[1] ?? m[2] ?? m[3])!, line: text.slice(0, m.index).split("\n").length });
  }
  return out;
}

const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;
const resolveTs = (from: string, spec: string) => path.resolve(path.dirname(from), spec).replace(/\.js$/, ".ts");

const files = sourceFiles();
const edges = files.flatMap((file) =>
  relativeImports(fs.readFileSync(file, "utf8")).map(({ spec, line }) => ({ file, line, spec, target: resolveTs(file, spec) })),
);

describe("the layers of src/", () => {
  it("reads imports of every form", () => {
    const text = 'import a from "./a.js";\nimport type { B } from "../b/b.js";\nexport { c } from "./c.js";\nconst d = await import("../d.js");\nimport "./side.js";\nimport x from "node:fs";\n';
    expect(relativeImports(text)).toEqual([
      { spec: "./a.js", line: 1 },
      { spec: "../b/b.js", line: 2 },
      { spec: "./c.js", line: 3 },
      { spec: "../d.js", line: 4 },
      { spec: "./side.js", line: 5 },
    ]);
    // The source tree is read: the CLI's command table imports its commands.
    expect(edges.filter((e) => e.file.endsWith(path.join("cli", "commands.ts"))).length).toBeGreaterThan(5);
  });

  it("name every folder once", () => {
    const folders = fs.readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect([...RANK.keys()].sort()).toEqual(folders);
    expect(fs.readdirSync(SRC).filter((n) => n.endsWith(".ts"))).toEqual([]);
  });

  it("point only down: no import of a folder in the same or a higher layer", () => {
    const bad = edges
      .filter((e) => folderOf(e.file) !== folderOf(e.target))
      .filter((e) => RANK.get(folderOf(e.target))! >= RANK.get(folderOf(e.file))!)
      .map((e) => `${path.relative(SRC, e.file)}:${e.line} imports ${e.spec} (${folderOf(e.file)} is not above ${folderOf(e.target)})`);
    expect(bad).toEqual([]);
  });

  it("every import names a file that exists", () => {
    const missing = edges.filter((e) => !fs.existsSync(e.target)).map((e) => `${path.relative(SRC, e.file)}:${e.line} imports ${e.spec}`);
    expect(missing).toEqual([]);
  });

  it("have no import cycle between files, type-only imports included", () => {
    const out = new Map(files.map((f) => [f, [] as string[]]));
    for (const e of edges) if (out.has(e.target)) out.get(e.file)!.push(e.target);
    // Tarjan's strongly connected components; any with two or more files is a cycle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of out.get(v)!) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(path.relative(SRC, w));
        } while (w !== v);
        if (scc.length > 1) cycles.push(scc.sort());
      }
    };
    for (const f of files) if (!index.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
