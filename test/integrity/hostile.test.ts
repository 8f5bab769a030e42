/**
 * Run folders as a hostile agent could leave them, checked through the real CLI: links to the
 * private answers, trees too deep to open, FIFOs, huge files. The other runs of the group must be
 * checked exactly as without the hostile one, and nothing the links point at may be read.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { CLI, REPO } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicAnswers, titanicDataDir, writeTitanicGroup, type FakeRun } from "../helpers/runs.js";
import { openUnder, readFileUnder, readRegularFile, walkUntrusted } from "../../src/io/untrusted.js";

const FIXTURES = decodeURIComponent(new URL("../fixtures/integrity/plagiarism/", import.meta.url).pathname);
const read = (f: string) => fs.readFileSync(f, "utf8");

/** Whether Dolos and its Python parser are installed and built here (plagiarism needs them). */
async function dolosBuilt(): Promise<boolean> {
  try {
    const lib = await import("@dodona/dolos-lib");
    await (await new lib.LanguagePicker().findLanguage("python")).createTokenizer();
    return true;
  } catch {
    return false;
  }
}
const DOLOS = await dolosBuilt();

// Deep trees cannot be removed by fs.rmSync (their paths exceed PATH_MAX), so they live here and `rm -rf` removes them.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-hostile-"));
afterAll(() => {
  spawnSync("rm", ["-rf", scratch]);
});

interface Result {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the command, KiB. */
  maxRssKiB: number;
}

const PRELOAD = path.join(scratch, "maxrss.cjs");
const RSS_TAG = "mlebench-test-maxrss=";
fs.writeFileSync(PRELOAD, `process.on("exit", () => require("fs").writeSync(2, "\\n${RSS_TAG}" + process.resourceUsage().maxRSS + "\\n"));\n`);

/** The built CLI, with a deadline short enough to show a hang, reporting its peak memory. */
function cli(args: string[], timeoutMs = 120_000): Result {
  const { MLEBENCH_DATA_DIR: _ignored, ...env } = process.env;
  const r = spawnSync(process.execPath, ["--require", PRELOAD, CLI, ...args], { cwd: REPO, env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 256 << 20 });
  const m = new RegExp(`\\n${RSS_TAG}(\\d+)\\n`).exec(r.stderr ?? "");
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? "", stderr: (r.stderr ?? "").replace(m?.[0] ?? "\0", ""), maxRssKiB: m ? Number(m[1]) : NaN };
}

/** Every text the command left: its output and every integrity JSON of the group and its runs. */
function everything(group: string, r: Result): string {
  const texts = [r.stdout, r.stderr];
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && e.name.endsWith(".json")) texts.push(read(p));
    }
  };
  visit(path.join(group, "integrity"));
  for (const run of fs.readdirSync(group)) if (fs.existsSync(path.join(group, run, "integrity"))) visit(path.join(group, run, "integrity"));
  return texts.join("\n");
}

const STACK_TRACE = /\n\s+at .+\(.+:\d+:\d+\)/;

let dataDir = "";
let answers = "";
let sample = "";
let references = "";
/** Rows of the private answers that must never show up anywhere. */
let needle = "";

/** Two ordinary runs (titanic_0 copied the reference, titanic_1 wrote its own), then one per `hostile` entry (titanic_2, ...). */
function group(name: string, hostile: ((runDir: string) => void)[], submission = sample): string {
  const dir = path.join(fs.mkdtempSync(path.join(scratch, "g-")), `g_run-group_${name}`);
  const runs: FakeRun[] = [
    { seed: 0, submission, wall: 10, snapshots: [], code: { "solution.py": read(path.join(FIXTURES, "renamed.py")) } },
    { seed: 1, submission, wall: 10, snapshots: [], code: { "solution.py": read(path.join(FIXTURES, "unrelated.py")) } },
    ...hostile.map((_, k) => ({ seed: 2 + k, submission, wall: 10, snapshots: [], code: { "main.py": "import pandas as pd\nprint(pd.read_csv('/home/data/train.csv').shape)\n" } })),
  ];
  writeTitanicGroup(dataDir, dir, "alpha", runs);
  hostile.forEach((make, k) => {
    const runDir = path.join(dir, `titanic_${2 + k}`);
    fs.mkdirSync(path.join(runDir, "logs"), { recursive: true });
    make(runDir);
  });
  return dir;
}

function mkfifo(p: string): void {
  const r = spawnSync("mkfifo", [p]);
  if (r.status !== 0) throw new Error(`mkfifo ${p}: ${r.stderr}`);
}

/** code/ twenty folders deep, each name 250 characters, with a file at the bottom (made by relative steps: the full path is too long to name). */
function deepTree(codeDir: string): void {
  const script = `const fs = require("fs"); process.chdir(process.argv[1]);
for (let i = 1; i <= 20; i++) { const n = String(i).padStart(3, "0") + "a".repeat(247); fs.mkdirSync(n); process.chdir(n); }
fs.writeFileSync("bottom.py", "print('bottom')\\n");`;
  const r = spawnSync(process.execPath, ["-e", script, codeDir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`deep tree: ${r.stderr}`);
}

const plagiarism = (g: string) => cli(["integrity", "plagiarism", g, "--references", references, "--json"]);
const rules = (g: string) => cli(["integrity", "rules", g, "--checks-only", "--json"]);

type RunResult = { flag: { run: string; flagged: boolean; reason: string; evidence: string[] }; comparison: { skipped: { file: string; side: string; reason: string }[] } };
type RulesRun = { run: string; flags: { check: string; flagged: boolean; reason: string; evidence: string[] }[] };
const byRun = <T extends { flag: { run: string } }>(runs: T[], id: string): T => runs.find((r) => r.flag?.run === id)!;

let basePlagiarism: Result;
let baseRules: Result;

beforeAll(async () => {
  dataDir = await titanicDataDir();
  answers = titanicAnswers(dataDir);
  sample = path.join(competitionPaths(dataDir, "titanic").public, getCompetition("titanic").sampleSubmission);
  needle = read(answers).split("\n").slice(1, 9).join("\n");
  expect(read(sample)).not.toContain(needle);
  references = tempDir("mlebench-hostile-refs-");
  fs.copyFileSync(path.join(FIXTURES, "reference.py"), path.join(references, "someone__top-kernel.py"));
  const base = group("base", []);
  if (DOLOS) basePlagiarism = plagiarism(base);
  baseRules = rules(base);
});

/** The ordinary runs were checked exactly as in a group without the hostile runs. */
function expectOrdinaryRunsUnchanged(p: Result | null, r: Result | null): void {
  if (p) {
    const base = JSON.parse(basePlagiarism.stdout).runs as RunResult[];
    const now = JSON.parse(p.stdout).runs as RunResult[];
    for (const id of ["titanic_0", "titanic_1"]) expect(byRun(now, id)).toEqual(byRun(base, id));
    expect(byRun(now, "titanic_0").flag.flagged).toBe(true);
  }
  if (r) {
    const base = JSON.parse(baseRules.stdout).runs as RulesRun[];
    const now = JSON.parse(r.stdout).runs as RulesRun[];
    for (const id of ["titanic_0", "titanic_1"]) expect(now.find((x) => x.run === id)).toEqual(base.find((x) => x.run === id));
  }
}

/**
 * The command's peak memory with the 50 MB file is about what it is with a 6-byte file in its
 * place: reading the file at all would add at least its 50 MiB (twice that as a string), while
 * runs of the same command differ by about 10 MiB.
 */
function expectBoundedMemory(withBig: Result, g: string, command: (g: string) => Result): void {
  fs.truncateSync(path.join(g, "titanic_2", "code", "big.py"), 6);
  const small = command(g);
  expect(small.status, small.stderr).toBe(withBig.status);
  expect(withBig.maxRssKiB - small.maxRssKiB).toBeLessThan(35 * 1024);
}

describe.skipIf(!DOLOS)("mlebench integrity plagiarism on hostile runs", () => {
  it("compares the ordinary group as a baseline", () => {
    expect(basePlagiarism.status, basePlagiarism.stderr).toBe(0);
    const runs = JSON.parse(basePlagiarism.stdout).runs as RunResult[];
    expect(runs.map((r) => r.flag.flagged)).toEqual([true, false]);
  });

  it("reads nothing through links to the private answers, and says so", () => {
    const g = group("links", [
      (run) => fs.symlinkSync(answers, path.join(run, "logs", "best_solution.py")),
      (run) => fs.symlinkSync(answers, path.join(run, "code", "solution.py")),
      (run) => {
        fs.rmSync(path.join(run, "code"), { recursive: true });
        fs.symlinkSync(path.dirname(answers), path.join(run, "code"));
      },
    ]);
    const r = plagiarism(g);
    expect(r.status, r.stderr).toBe(basePlagiarism.status);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(everything(g, r)).not.toContain(needle);
    const runs = JSON.parse(r.stdout).runs as (RunResult & { submissionFiles: string[] })[];
    expectOrdinaryRunsUnchanged(r, null);

    const best = byRun(runs, "titanic_2");
    expect(best.submissionFiles).toEqual(["code/main.py"]);
    expect(best.comparison.skipped).toContainEqual({ file: "logs/best_solution.py", side: "submission", reason: "a symbolic link, not followed" });
    expect(best.flag.reason).toContain("; not compared: logs/best_solution.py (a symbolic link, not followed)");
    expect(best.flag.evidence).toContain("submission logs/best_solution.py skipped: a symbolic link, not followed");

    const code = byRun(runs, "titanic_3");
    expect(code.submissionFiles).toEqual(["code/main.py"]);
    expect(code.comparison.skipped).toContainEqual({ file: "code/solution.py", side: "submission", reason: "a symbolic link, not followed" });

    const linkedDir = byRun(runs, "titanic_4");
    expect(linkedDir.submissionFiles).toEqual([]);
    expect(linkedDir.flag).toMatchObject({
      flagged: false,
      reason: "the run left no code (code/ is empty or missing); not compared: code (a symbolic link, not followed)",
    });
    // The plain output says it too.
    const text = cli(["integrity", "plagiarism", g, "--references", references]);
    expect(text.stdout).toMatch(/titanic_2: .*not compared: logs\/best_solution\.py \(a symbolic link, not followed\)/);
    expect(text.stdout).not.toContain(needle);
  });

  it("skips a code/ tree too deep to open without aborting the group", () => {
    const g = group("deep", [(run) => deepTree(path.join(run, "code"))]);
    const r = plagiarism(g);
    expect(r.status, r.stderr).toBe(basePlagiarism.status);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr).not.toContain("ENAMETOOLONG");
    expectOrdinaryRunsUnchanged(r, null);
    const deep = byRun(JSON.parse(r.stdout).runs as RunResult[], "titanic_2");
    const skipped = deep.comparison.skipped.filter((s) => s.file.startsWith("code/001"));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(/^(path too long|nested too deep)/);
    // Shown cut in the middle, not as the four kilobytes it is.
    expect(skipped[0]!.file.length).toBeLessThan(200);
    expect(deep.flag.reason).toMatch(/not compared: code\/001a+…a+ \((path too long|nested too deep)/);
  });

  it("finishes, and reports them, with FIFOs in code/ and logs/", () => {
    const g = group("fifo", [
      (run) => {
        mkfifo(path.join(run, "code", "x.py"));
        mkfifo(path.join(run, "logs", "agent.log"));
        mkfifo(path.join(run, "logs", "best_solution.py"));
      },
    ]);
    const r = plagiarism(g);
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(basePlagiarism.status);
    expectOrdinaryRunsUnchanged(r, null);
    const fifo = byRun(JSON.parse(r.stdout).runs as RunResult[], "titanic_2");
    expect(fifo.comparison.skipped).toEqual(
      expect.arrayContaining([
        { file: "code/x.py", side: "submission", reason: "not a regular file, not opened" },
        { file: "logs/best_solution.py", side: "submission", reason: "not a regular file, not opened" },
      ]),
    );
  });

  it("skips a 50 MB code file unread, in bounded memory", () => {
    const g = group("big", [(run) => fs.writeFileSync(path.join(run, "code", "big.py"), Buffer.alloc(50 * 1024 * 1024, "x = 1\n"))]);
    const r = plagiarism(g);
    expect(r.status, r.stderr).toBe(basePlagiarism.status);
    expectOrdinaryRunsUnchanged(r, null);
    const big = byRun(JSON.parse(r.stdout).runs as RunResult[], "titanic_2");
    expect(big.comparison.skipped).toContainEqual({
      file: "code/big.py",
      side: "submission",
      reason: "larger than 1048576 bytes (52428800); too big to be hand-written code",
    });
    expect(big.flag.reason).toContain("not compared: code/big.py (larger than 1048576 bytes (52428800)");
    expectBoundedMemory(r, g, plagiarism);
  });

  it("takes the medal away without following a linked grading_report.json, and the report grades that run afresh", () => {
    const g = group("dq", [], answers);
    const victim = path.join(scratch, "victim.json");
    fs.writeFileSync(victim, '{"untouched": true}\n');
    const report = path.join(g, "titanic_0", "grading_report.json");
    fs.rmSync(report);
    fs.symlinkSync(victim, report);
    const r = cli(["integrity", "plagiarism", g, "--references", references, "--disqualify", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(read(victim)).toBe('{"untouched": true}\n');
    expect(fs.lstatSync(report).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(path.join(g, "titanic_0", "integrity", "disqualified.json"))).reasons[0]).toMatch(/^plagiarism: /);
    const out = tempDir("mlebench-hostile-report-");
    const rep = cli(["report", g, "--out", out, "--data-dir", dataDir, "--format", "json"]);
    expect(rep.status, rep.stderr).toBe(0);
    const json = JSON.parse(read(path.join(out, "report.json")));
    expect(json.agents[0].integrity.disqualified).toBe(1);
    expect(json.agents[0].effort.medals).toBe(1);
  });
});

describe("mlebench integrity rules --checks-only on hostile runs", () => {
  it("checks the ordinary group as a baseline", () => {
    expect(baseRules.status, baseRules.stderr).toBe(0);
  });

  it("reads nothing through links to the private answers, and says so", () => {
    const g = group("rules-links", [
      (run) => fs.symlinkSync(answers, path.join(run, "code", "solution.py")),
      (run) => {
        fs.rmSync(path.join(run, "code"), { recursive: true });
        fs.symlinkSync(path.dirname(answers), path.join(run, "code"));
      },
      (run) => {
        fs.rmSync(path.join(run, "logs"), { recursive: true });
        fs.symlinkSync(path.dirname(answers), path.join(run, "logs"));
      },
    ]);
    const r = rules(g);
    expect(r.status, r.stderr).toBe(baseRules.status);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(everything(g, r)).not.toContain(needle);
    expectOrdinaryRunsUnchanged(null, r);
    const runs = JSON.parse(r.stdout).runs as RulesRun[];
    const flagOf = (run: string, check: string) => runs.find((x) => x.run === run)!.flags.find((f) => f.check === check)!;
    expect(flagOf("titanic_2", "hardcoded-labels").evidence).toContain("code/solution.py: a symbolic link, not followed");
    expect(flagOf("titanic_2", "hardcoded-labels").reason).toContain("; not read in full: code/solution.py (a symbolic link, not followed)");
    expect(flagOf("titanic_3", "outside-paths").evidence).toContain("code: a symbolic link, not followed");
    // A linked code/ holds no code: nothing ran, which is what the check says.
    expect(flagOf("titanic_3", "submission-without-code").flagged).toBe(true);
    expect(flagOf("titanic_4", "network-attempts").reason).toContain("logs/agent.log (a symbolic link, not followed at logs/)");
  });

  it("skips a code/ tree too deep to open without aborting the group", () => {
    const g = group("rules-deep", [(run) => deepTree(path.join(run, "code"))]);
    const r = rules(g);
    expect(r.status, r.stderr).toBe(baseRules.status);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expectOrdinaryRunsUnchanged(null, r);
    const deep = (JSON.parse(r.stdout).runs as RulesRun[]).find((x) => x.run === "titanic_2")!;
    const literals = deep.flags.find((f) => f.check === "hardcoded-labels")!;
    expect(literals.evidence.some((e) => /^code\/001a+…a+: (path too long|nested too deep)/.test(e))).toBe(true);
  });

  it("finishes, and reports them, with FIFOs in code/ and logs/", () => {
    const g = group("rules-fifo", [
      (run) => {
        mkfifo(path.join(run, "code", "x.py"));
        mkfifo(path.join(run, "logs", "agent.log"));
        mkfifo(path.join(run, "egress.jsonl"));
      },
    ]);
    const r = rules(g);
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(baseRules.status);
    expectOrdinaryRunsUnchanged(null, r);
    const network = (JSON.parse(r.stdout).runs as RulesRun[]).find((x) => x.run === "titanic_2")!.flags.find((f) => f.check === "network-attempts")!;
    expect(network.evidence).toEqual(
      expect.arrayContaining(["egress.jsonl: not a regular file, not opened", "logs/agent.log: not a regular file, not opened", "code/x.py: not a regular file, not opened"]),
    );
  });

  it("leaves a 50 MB code file unread and says so, in bounded memory", () => {
    const g = group("rules-big", [(run) => fs.writeFileSync(path.join(run, "code", "big.py"), Buffer.alloc(50 * 1024 * 1024, "x = 1\n"))]);
    const r = rules(g);
    expect(r.status, r.stderr).toBe(baseRules.status);
    expectOrdinaryRunsUnchanged(null, r);
    const literals = (JSON.parse(r.stdout).runs as RulesRun[]).find((x) => x.run === "titanic_2")!.flags.find((f) => f.check === "hardcoded-labels")!;
    expect(literals.evidence).toContain("code/big.py: larger than 2000000 bytes (52428800), not read");
    expectBoundedMemory(r, g, rules);
  });

  it("neither hangs nor aborts on code built to make the scanners backtrack or overflow the stack", () => {
    const code = [
      "submission = 'submission.csv'",
      // An unclosed string of digits and commas made the row-writing pattern backtrack for hours.
      `f.write("${"1,".repeat(20_000)}`,
      `echo "${"1,".repeat(20_000)}`,
      // Spreading a literal of this many items into an array overflowed the call stack.
      `labels = [[${"'a',".repeat(400_000)}]]`,
      "",
    ].join("\n");
    expect(Buffer.byteLength(code)).toBeLessThan(2_000_000);
    const g = group("rules-scanners", [(run) => fs.writeFileSync(path.join(run, "code", "cheat.py"), code)]);
    const started = Date.now();
    const r = rules(g);
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(baseRules.status);
    expect(Date.now() - started).toBeLessThan(60_000);
    expectOrdinaryRunsUnchanged(null, r);
    const literals = (JSON.parse(r.stdout).runs as RulesRun[]).find((x) => x.run === "titanic_2")!.flags.find((f) => f.check === "hardcoded-labels")!;
    expect(literals.flagged).toBe(true);
    expect(literals.reason).toBe("code holds 1 long literal of labels or data");
    expect(literals.evidence[0]).toMatch(/^code\/cheat\.py:4: \[literal of 400000 strings with only 1 distinct\]/);
  });
});

describe("mlebench report on run folders with strange records", () => {
  it("grades afresh a run whose grading_report.json is a link or a FIFO, without reading it or hanging", () => {
    const g = group("report", [], answers);
    fs.rmSync(path.join(g, "titanic_0", "grading_report.json"));
    fs.symlinkSync(answers, path.join(g, "titanic_0", "grading_report.json"));
    fs.rmSync(path.join(g, "titanic_1", "grading_report.json"));
    mkfifo(path.join(g, "titanic_1", "grading_report.json"));
    const out = tempDir("mlebench-hostile-report-");
    const r = cli(["report", g, "--out", out, "--data-dir", dataDir, "--format", "json"]);
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(read(path.join(out, "report.json")));
    expect(json.agents[0].effort.medals).toBe(2);
  });
});

describe("reading untrusted files", () => {
  it("refuses links at the file and on the way to it, FIFOs, and reads at most what it is asked", () => {
    const root = tempDir("mlebench-untrusted-");
    fs.mkdirSync(path.join(root, "logs"));
    fs.writeFileSync(path.join(root, "logs", "a.log"), "0123456789");
    fs.symlinkSync(path.join(root, "logs"), path.join(root, "linked"));
    fs.symlinkSync(path.join(root, "logs", "a.log"), path.join(root, "logs", "b.log"));
    mkfifo(path.join(root, "logs", "pipe"));
    expect(readFileUnder(root, "logs/a.log", 4)).toMatchObject({ size: 10, truncated: true, bytes: Buffer.from("0123") });
    expect(readFileUnder(root, "linked/a.log", 100)).toEqual({ skipped: "symbolic link", via: "linked" });
    expect(readFileUnder(root, "logs/b.log", 100)).toEqual({ skipped: "symbolic link" });
    expect(readFileUnder(root, "logs/pipe", 100)).toEqual({ skipped: "not a regular file" });
    expect(readFileUnder(root, "logs/none", 100)).toEqual({ skipped: "missing" });
    expect(openUnder(root, "../etc/passwd")).toEqual({ skipped: "unreadable" });
    expect(readRegularFile(path.join(root, "logs", "a.log"), 100)).toMatchObject({ truncated: false, size: 10 });
  });

  it("walks within its bounds and lists what it left out", () => {
    const root = tempDir("mlebench-untrusted-walk-");
    for (let k = 0; k < 30; k++) fs.writeFileSync(path.join(root, `f${String(k).padStart(2, "0")}`), "x");
    fs.mkdirSync(path.join(root, "a", "b", "c"), { recursive: true });
    fs.writeFileSync(path.join(root, "a", "b", "c", "deep.py"), "x");
    fs.symlinkSync("/etc", path.join(root, "etc"));
    mkfifo(path.join(root, "pipe"));
    const all = walkUntrusted(root, { maxDepth: 2 });
    expect(all.files).toHaveLength(30);
    expect(all.skipped).toEqual([
      { rel: "a/b/c", why: "too deep" },
      { rel: "etc", why: "symbolic link" },
      { rel: "pipe", why: "not a regular file" },
    ]);
    const few = walkUntrusted(root, { maxEntries: 10, maxSkipped: 0 });
    expect(few.files.length).toBeLessThanOrEqual(10);
    expect(few.skippedMore).toBeGreaterThanOrEqual(1);
    expect(walkUntrusted(path.join(root, "etc"))).toEqual({ files: [], skipped: [{ rel: ".", why: "symbolic link" }], skippedMore: 0 });
  });
});
