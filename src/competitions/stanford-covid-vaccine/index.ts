import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "stanford-covid-vaccine",
  name: "OpenVaccine: COVID-19 mRNA Vaccine Degradation Prediction",
  type: "simple",
  complexity: "high",
  // Upstream's config names this grader so, although the metric is MCRMSE.
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
