import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "detecting-insults-in-social-commentary",
  name: "Detecting Insults in Social Commentary",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission_null.csv",
  grade,
};
