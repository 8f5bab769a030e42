import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "invasive-species-monitoring",
  name: "Invasive Species Monitoring",
  type: "simple",
  metric: "auc-roc",
  answers: "answers.csv",
  sampleSubmission: "../private/sample_submission.csv",
  grade,
};
