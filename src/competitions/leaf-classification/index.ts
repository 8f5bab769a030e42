import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "leaf-classification",
  name: "Leaf Classification",
  type: "simple",
  complexity: "low",
  category: "Image Classification",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
