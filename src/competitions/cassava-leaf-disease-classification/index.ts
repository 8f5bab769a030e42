import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "cassava-leaf-disease-classification",
  name: "Cassava Leaf Disease Classification",
  type: "code",
  complexity: "medium",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
