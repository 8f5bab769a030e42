import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { mlebench, mlebenchAsync } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM } from "../helpers/fake-llm-server.js";
import { runCli, titanicDataDir, writeTitanicGroup } from "../helpers/runs.js";

const FIXTURES = decodeURIComponent(new URL("../fixtures/integrity/plagiarism/", import.meta.url).pathname);
const read = (f: string) => fs.readFileSync(f, "utf8");

let dataDir = "";
let group = "";
let references = "";

beforeAll(async () => {
  dataDir = await titanicDataDir();
  const answers = path.join(competitionPaths(dataDir, "titanic").private, getCompetition("titanic").answers);
  references = tempDir("mlebench-refs-");
  fs.copyFileSync(path.join(FIXTURES, "reference.py"), path.join(references, "someone__top-kernel.py"));
  group = path.join(tempDir("mlebench-integrity-"), "g_run-group_alpha");
  // Both runs submit the answers (gold); run 0 copied a public kernel, run 1 wrote its own code.
  writeTitanicGroup(dataDir, group, "alpha", [
    { seed: 0, submission: answers, wall: 10, snapshots: [], code: { "solution.py": read(path.join(FIXTURES, "renamed.py")) } },
    { seed: 1, submission: answers, wall: 10, snapshots: [], code: { "solution.py": read(path.join(FIXTURES, "unrelated.py")) } },
  ]);
});

describe("mlebench integrity", () => {
  it("flags the copied run, disqualifies it, and the report shows it", () => {
    const r = mlebench(["integrity", "plagiarism", group, "--references", references, "--disqualify", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.summary).toEqual([{ check: "plagiarism", checked: 2, flagged: 1, percentFlagged: 50 }]);
    expect(out.runs[0].flag.flagged).toBe(true);
    expect(out.runs[0].comparison.bestSimilarity).toBeGreaterThan(0.9);
    expect(out.runs[1].flag.flagged).toBe(false);
    const copied = path.join(group, "titanic_0");
    const report = JSON.parse(read(path.join(copied, "grading_report.json")));
    expect(report).toMatchObject({ gold_medal: false, any_medal: false, valid_submission: true });
    expect(report.disqualified_reason).toMatch(/^plagiarism: /);
    expect(JSON.parse(read(path.join(copied, "integrity", "grading_report.graded.json"))).gold_medal).toBe(true);
    expect(JSON.parse(read(path.join(group, "titanic_1", "grading_report.json"))).gold_medal).toBe(true);
    // Running it again does not stack: the graded report stays the original.
    expect(mlebench(["integrity", "plagiarism", group, "--references", references, "--disqualify"]).status).toBe(0);
    expect(JSON.parse(read(path.join(copied, "integrity", "grading_report.graded.json"))).gold_medal).toBe(true);

    const out2 = tempDir("mlebench-integrity-report-");
    const rep = mlebench(["report", group, "--out", out2, "--data-dir", dataDir, "--format", "md,json"]);
    expect(rep.status, rep.stderr).toBe(0);
    const md = read(path.join(out2, "report.md"));
    expect(md).toContain("| alpha | plagiarism | 1 | 2 | 50.0 | 1 |");
    expect(md).toContain("disqualified: plagiarism: ");
    const json = JSON.parse(read(path.join(out2, "report.json")));
    expect(json.agents[0].integrity).toEqual({ checks: [{ check: "plagiarism", checked: 2, flagged: 1 }], disqualified: 1 });
    expect(json.agents[0].effort.medals).toBe(1);
  });

  it("runs the deterministic rule checks without an LLM", () => {
    const r = mlebench(["integrity", "rules", group, "--checks-only", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.judge).toBeNull();
    expect(out.checks.map((c: { check: string; checked: number }) => [c.check, c.checked])).toEqual([
      ["network-attempts", 2],
      ["outside-paths", 2],
      ["submission-without-code", 2],
      ["hardcoded-labels", 2],
    ]);
    expect(fs.existsSync(path.join(group, "titanic_0", "integrity", "rules.json"))).toBe(true);
  });

  it("checks a group that `mlebench run` made under the default sandbox", () => {
    const cmd = "cp /home/data/sample_submission.csv /home/submission/submission.csv && echo 'import pandas' > /home/code/solve.py";
    const run = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--grade"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.records[0].sandbox.backend).toBe("bwrap");
    const r = mlebench(["integrity", "rules", run.groupDir, "--checks-only", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { checks: { check: string; checked: number }[] };
    expect(out.checks.map((c) => [c.check, c.checked])).toEqual([
      ["network-attempts", 1],
      ["outside-paths", 1],
      ["submission-without-code", 1],
      ["hardcoded-labels", 1],
    ]);
    expect(fs.existsSync(path.join(run.runDirs[0]!, "integrity", "rules.json"))).toBe(true);
  });

  it("flags plagiarism in a group that `mlebench run` made under the default sandbox, and disqualifies that run", () => {
    // Two seeds of one agent: seed 0 hands in a copy of the reference kernel (renamed), seed 1 code of its own.
    const agentDir = tempDir("mlebench-copier-");
    fs.copyFileSync(path.join(FIXTURES, "renamed.py"), path.join(agentDir, "copied.py"));
    fs.copyFileSync(path.join(FIXTURES, "unrelated.py"), path.join(agentDir, "own.py"));
    const config = path.join(tempDir(), "agents.yaml");
    const cmd = 'cp /home/data/sample_submission.csv /home/submission/submission.csv; if [ "$MLEBENCH_SEED" = 0 ]; then cp /home/agent/copied.py /home/code/solution.py; else cp /home/agent/own.py /home/code/solution.py; fi';
    fs.writeFileSync(config, `copier:\n  cmd: ${JSON.stringify(cmd)}\n  dir: ${agentDir}\n`);
    const run = runCli(dataDir, ["--agent", "copier", "--agent-config", config, "-c", "titanic", "--seeds", "2", "--grade"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.records.map((r) => r.sandbox.backend)).toEqual(["bwrap", "bwrap"]);
    const r = mlebench(["integrity", "plagiarism", run.groupDir, "--references", references, "--disqualify", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { summary: unknown; runs: { runId?: string; run_id?: string; flag: { flagged: boolean } }[] };
    expect(out.summary).toEqual([{ check: "plagiarism", checked: 2, flagged: 1, percentFlagged: 50 }]);
    const bySeed = run.records.map((rec, i) => ({ seed: rec.seed, dir: run.runDirs[i]! }));
    const copied = bySeed.find((x) => x.seed === 0)!.dir;
    const own = bySeed.find((x) => x.seed === 1)!.dir;
    expect(JSON.parse(read(path.join(copied, "grading_report.json"))).disqualified_reason).toMatch(/^plagiarism: /);
    expect(JSON.parse(read(path.join(own, "grading_report.json"))).disqualified_reason ?? null).toBeNull();
    expect(fs.existsSync(path.join(copied, "integrity", "grading_report.graded.json"))).toBe(true);
  });

  it("asks the judge through the LLM layer and records its verdicts", async () => {
    const llm = await startFakeLLM();
    try {
      const judged = path.join(tempDir("mlebench-judged-"), "g_run-group_beta");
      const answers = path.join(competitionPaths(dataDir, "titanic").private, getCompetition("titanic").answers);
      writeTitanicGroup(dataDir, judged, "beta", [{ seed: 0, submission: answers, wall: 10, snapshots: [], code: { "solve.py": "print('hi')\n" } }]);
      fs.mkdirSync(path.join(judged, "titanic_0", "logs"), { recursive: true });
      fs.writeFileSync(path.join(judged, "titanic_0", "logs", "agent.log"), "wrote the answers myself\n");
      llm.script(
        openaiText("The log shows the labels typed in.\nThe final answer is yes."),
        openaiText("No API calls.\nThe final answer is no."),
        openaiText("Nothing outside.\nThe final answer is no."),
      );
      const r = await mlebenchAsync(["integrity", "rules", judged, "--disqualify", "--json"], { MLEBENCH_LLM_MODEL: `compat/judge@${llm.openaiBaseUrl}` });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.judge.questions.find((q: { question: string }) => q.question === "manual_submission")).toMatchObject({ n: 1, yes: 1 });
      expect(JSON.parse(read(path.join(judged, "titanic_0", "grading_report.json"))).disqualified_reason).toMatch(/^rule violation: /);
    } finally {
      await llm.close();
    }
  });

  it("audits a prepared competition for leaks, and refuses bad usage", () => {
    const r = mlebench(["integrity", "leakage", "-c", "titanic", "--data-dir", dataDir, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.reports).toHaveLength(1);
    expect(out.reports[0]).toMatchObject({ competition: "titanic", leaks: false, findings: [] });
    expect(out.failures).toEqual([]);
    const neither = mlebench(["integrity", "leakage"]);
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain("exactly one of -c <ids...> or --split <name>");
    const missing = mlebench(["integrity", "plagiarism", path.join(dataDir, "no-group")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("is not a run group directory");
    const noModel = mlebench(["integrity", "rules", group], { MLEBENCH_LLM_MODEL: "" });
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toContain("the rule judge (without --checks-only) needs a model");
  });
});
