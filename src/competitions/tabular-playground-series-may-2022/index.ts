import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "tabular-playground-series-may-2022",
  name: "Tabular Playground Series - May 2022",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
