import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "jigsaw-toxic-comment-classification-challenge",
  name: "Toxic Comment Classification Challenge",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "column-wise ROC AUC",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
