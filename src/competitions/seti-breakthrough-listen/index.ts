import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "seti-breakthrough-listen",
  name: "SETI Breakthrough Listen - E.T. Signal Search",
  type: "simple",
  complexity: "medium",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
