/** Medals of runs at a moment of their run, from the snapshots they took, graded when first asked. */
import path from "node:path";
import { loadCompetition } from "../competitions/registry.js";
import { gradeToReport, loadGradingInputs, type GradingInputs } from "../grading/grade.js";
import type { CompetitionReport } from "../grading/report.js";
import type { ReportedRun } from "./inputs.js";

/** Whether a report has a medal (a disqualified run's medals were taken off its report). */
export function anyMedal(r: CompetitionReport): boolean {
  return r.gold_medal || r.silver_medal || r.bronze_medal;
}

/** Grades runs' snapshots when first asked, each file once, against the answers in a data dir. */
export class SnapshotGrades {
  private readonly inputs = new Map<string, GradingInputs | null>();
  private readonly graded = new Map<string, boolean>();

  constructor(
    private readonly dataDir: string,
    private readonly warn: (m: string) => void,
  ) {}

  /**
   * Whether a run had a medal at `t` seconds: its final report once it had ended, else its latest
   * snapshot at or before `t` (graded now), else none.
   */
  async medalAt(run: ReportedRun, t: number): Promise<boolean> {
    const rec = run.record!;
    if (rec.wall_seconds !== null && t >= rec.wall_seconds) return anyMedal(run.report);
    const snap = [...rec.snapshots].reverse().find((s) => s.elapsed_seconds <= t);
    if (!snap || !run.runDir) return false;
    const file = path.join(run.runDir, snap.file);
    if (!this.graded.has(file)) {
      const competition = await loadCompetition(run.report.competition_id);
      if (!this.inputs.has(competition.id)) {
        try {
          this.inputs.set(competition.id, loadGradingInputs(competition, this.dataDir));
        } catch {
          this.inputs.set(competition.id, null);
          this.warn(`time curve: cannot grade ${competition.id} snapshots (answers not in ${this.dataDir})`);
        }
      }
      const gi = this.inputs.get(competition.id);
      this.graded.set(file, gi ? gradeToReport(competition, file, gi).any_medal : false);
    }
    return this.graded.get(file)!;
  }
}

