import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "osic-pulmonary-fibrosis-progression",
  name: "OSIC Pulmonary Fibrosis Progression",
  type: "code",
  complexity: "medium",
  metric: "modified-laplace-log-likelihood",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
