import { pythonIsoNow } from "../grading/report.js";
import { aggregateAgent, type AgentReport } from "./aggregate.js";
import { SnapshotGrades } from "./snapshot-grades.js";
import { equalBudgets, equalCosts } from "./cost.js";
import type { AgentInput, ReportedRun } from "./inputs.js";

/** Version of the report JSON's shape; bumped when a key changes meaning or goes away. */
export const REPORT_SCHEMA = "mlebench-report/1";

/** The whole report: what was asked, the agents side by side, and anything worth a warning. */
export interface ReportData {
  schema: typeof REPORT_SCHEMA;
  created_at: string;
  options: { split: string | null; competitions: string[]; pad_missing: boolean; num_seeds: number | null };
  agents: AgentReport[];
  /** The common time budget of the equal-time comparison (seconds); null when no agent has a time curve. */
  equal_budget_seconds: number | null;
  /** The common LLM budget per run of the equal-cost comparison (USD); null when no agent's cost is known. */
  equal_cost_usd: number | null;
  warnings: string[];
}

/** Build the report for agents' inputs over a fixed list of competitions. */
export async function buildReport(
  inputs: AgentInput[],
  opts: { split: string | null; competitionIds: string[]; padMissing: boolean; numSeeds: number | null; dataDir: string },
): Promise<ReportData> {
  const warnings: string[] = [];
  const warn = (m: string) => {
    if (!warnings.includes(m)) warnings.push(m);
  };
  const agents: AgentReport[] = [];
  const cells: (ReportedRun | null)[][][] = [];
  const grades = new SnapshotGrades(opts.dataDir, warn);
  for (const input of inputs) {
    const a = await aggregateAgent(input, opts, warn, grades);
    agents.push(a.report);
    cells.push(a.cells);
  }
  // Equal time and equal cost need every agent's runs, so they are filled in once all are aggregated.
  const budgets = equalBudgets(agents.map((a) => a.time_curve));
  agents.forEach((a, i) => (a.cost_normalised.equal_budget = budgets[i]));
  const costs = await equalCosts(cells, grades);
  agents.forEach((a, i) => (a.cost_normalised.equal_cost = costs[i]));
  for (const a of agents) {
    const flagged = [...new Set(a.per_competition.filter((r) => r.known_issue).map((r) => r.competition_id))];
    for (const id of flagged) warn(`${id} has a known upstream data issue: ${a.per_competition.find((r) => r.competition_id === id)!.known_issue}`);
  }
  return {
    schema: REPORT_SCHEMA,
    created_at: pythonIsoNow(),
    options: { split: opts.split, competitions: opts.competitionIds, pad_missing: opts.padMissing, num_seeds: opts.numSeeds },
    agents,
    equal_budget_seconds: budgets.find((b) => b !== null)?.budget_seconds ?? null,
    equal_cost_usd: costs.find((c) => c !== null)?.budget_usd ?? null,
    warnings,
  };
}
