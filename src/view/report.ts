/**
 * The paper's tables over the viewer's MLE-bench groups, built live from their files by the same
 * code as `mlebench report`: agents side by side by split, and each competition's medals per seed.
 */
import { buildReport, type ReportData } from "../report/build.js";
import { loadInputs } from "../report/inputs.js";
import type { ViewGroup } from "./groups.js";

/** The report over `groups` (MLE-bench groups only), or why it cannot be made now. */
export async function groupsReport(groups: ViewGroup[], dataDir: string): Promise<ReportData | { error: string }> {
  const mle = groups.filter((g) => g.kind === "mle");
  if (mle.length === 0) return { error: "no MLE-bench run group to report on" };
  try {
    const agents = await loadInputs(
      mle.map((g) => g.dir),
      dataDir,
    );
    const competitionIds = [...new Set(agents.flatMap((a) => a.runs.map((r) => r.report.competition_id)))].sort();
    return await buildReport(agents, { split: null, competitionIds, padMissing: true, numSeeds: null, dataDir });
  } catch (e) {
    return { error: `the report cannot be made yet: ${(e as Error).message}` };
  }
}
