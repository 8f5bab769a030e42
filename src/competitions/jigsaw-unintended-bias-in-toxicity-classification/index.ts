import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "jigsaw-unintended-bias-in-toxicity-classification",
  name: "Jigsaw Unintended Bias in Toxicity Classification",
  type: "code",
  complexity: "medium",
  metric: "jigsaw-unintended-bias-in-toxicity-classification-score",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
