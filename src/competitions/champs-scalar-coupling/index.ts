import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "champs-scalar-coupling",
  name: "Predicting Molecular Properties",
  type: "simple",
  complexity: "medium",
  metric: "log-mean-absolute-error",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
