import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDemoTable, type DemoReport, type DemoRow } from "../../src/demo/demo.js";
import { mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";

const UPSTREAM_KEYS = [
  "competition_id", "score", "gold_threshold", "silver_threshold", "bronze_threshold", "median_threshold",
  "any_medal", "gold_medal", "silver_medal", "bronze_medal", "above_median", "submission_exists",
  "valid_submission", "is_lower_better", "created_at", "submission_path",
];

describe("mlebench demo (short: titanic only)", () => {
  it("prepares, runs dummy and baseline in the sandbox, grades, and the baseline beats dummy", () => {
    const dataDir = tempDir();
    const runsDir = tempDir();
    const r = mlebench(["demo", "-c", "titanic", "--time-limit", "2m", "--no-setup", "--json", "--data-dir", dataDir, "--runs-dir", runsDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("checking the environment");
    expect(r.stderr).toContain("prepared titanic (prepared)");
    const report = JSON.parse(r.stdout) as DemoReport;
    expect(Object.keys(report.run_groups)).toEqual(["dummy", "baseline"]);
    const row = (agent: string) => report.rows.find((x) => x.agent === agent)!;
    expect(row("dummy")).toMatchObject({ competition_id: "titanic", status: "completed", valid: true });
    expect(row("baseline")).toMatchObject({ competition_id: "titanic", status: "completed", exit_reason: "finished", valid: true });
    expect(row("baseline").score!).toBeGreaterThan(row("dummy").score!);
    const grading = JSON.parse(fs.readFileSync(row("baseline").report!, "utf8"));
    expect(Object.keys(grading).slice(0, UPSTREAM_KEYS.length)).toEqual(UPSTREAM_KEYS);
    expect(grading.score).toBe(row("baseline").score);
    expect(fs.readFileSync(report.report_file, "utf8")).toBe(JSON.stringify(report, null, 2) + "\n");
    expect(report.summaries.baseline).toMatchObject({ total_runs: 1, total_valid_submissions: 1 });
    const html = fs.readFileSync(report.html_file, "utf8");
    expect(html).toContain('id="chart-medals"');
    expect(html).toContain("Per competition: baseline");
    // The baseline kept its code where every agent keeps it.
    const runDir = path.dirname(row("baseline").report!);
    expect(fs.readdirSync(path.join(runDir, "code")).sort()).toEqual(["baseline.py", "plan.json"]);
    expect(fs.readFileSync(path.join(runDir, "logs", "agent.log"), "utf8")).toContain("[baseline] validation: Submission is valid.");
  });

  it("refuses competitions that need Kaggle data, and bad flags, with exit 2", () => {
    const a = mlebench(["demo", "-c", "spaceship-titanic", "--no-setup"]);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('demo runs offline competitions only; "spaceship-titanic" needs Kaggle data');
    const c = mlebench(["demo", "--split", "low", "--no-setup"]);
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/demo runs offline competitions only; ".+" needs Kaggle data/);
    const d = mlebench(["demo", "--split", "offline-huge", "--no-setup"]);
    expect(d.status).toBe(2);
    expect(d.stderr).toContain('Unknown split "offline-huge"; known splits: low, lite, medium, high, split75, dev, systemcard, offline, offline-lite, offline-low, offline-medium, offline-high.');
    const b = mlebench(["demo", "--time-limit", "later", "--no-setup"]);
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('--time-limit: "later" is not a duration');
  });
});

describe("mlebench demo: missing environment", () => {
  it("lists what is missing with the fix, and exits 1 without --setup rights", () => {
    const r = mlebench(["demo", "-c", "titanic", "--no-setup", "--data-dir", tempDir(), "--runs-dir", tempDir()], {
      MLEBENCH_AGENT_PYTHON: "/nonexistent/python3",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^python3 +missing +required/m);
    expect(r.stderr).toContain("fix: sudo bash scripts/setup-agent-env.sh");
    expect(r.stderr).toContain("the demo cannot run until these are fixed (as root it installs them itself)");
    expect(r.stdout).toBe("");
  });
});

describe("formatDemoTable", () => {
  it("puts the agents side by side with medals, totals and paths", () => {
    const row = (agent: string, over: Partial<DemoRow>): DemoRow => ({
      competition_id: "titanic", agent, seed: 0, status: "completed", exit_reason: "finished", score: 0.5,
      valid: true, medal: null, above_median: false, report: null, ...over,
    });
    const summary = { total_runs: 2, total_runs_with_submissions: 2, total_valid_submissions: 1, total_medals: 1,
      total_gold_medals: 0, total_silver_medals: 1, total_bronze_medals: 0, total_above_median: 1 };
    const report: DemoReport = {
      created_at: "x",
      run_groups: { dummy: "/r/d", baseline: "/r/b" },
      rows: [
        row("dummy", { score: 0.61832 }),
        row("baseline", { score: 0.81679, medal: "silver" }),
        row("dummy", { competition_id: "digits", valid: false, score: null }),
        row("baseline", { competition_id: "digits", status: "failed", exit_reason: null }),
      ],
      summaries: { dummy: { ...summary, total_medals: 0, total_silver_medals: 0, total_above_median: 0 }, baseline: summary },
      report_file: "/r/demo.json",
      html_file: "/r/demo.html",
    };
    expect(formatDemoTable(report)).toBe(
      [
        "competition  seed  dummy (score, medal)  baseline (score, medal)",
        "titanic      0     0.61832               0.81679 silver",
        "digits       0     invalid               failed",
        "",
        "dummy: 1/2 valid, 0 medals (0 gold), 0 above median",
        "baseline: 1/2 valid, 1 medals (0 gold), 1 above median",
        "Medals are against each competition's reference population of standard pipelines.",
        "report: /r/demo.html (charts and tables), /r/demo.json",
        "runs (dummy): /r/d",
        "runs (baseline): /r/b",
        "",
      ].join("\n"),
    );
  });
});
