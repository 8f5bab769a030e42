import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "random-acts-of-pizza",
  name: "Random Acts of Pizza",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sampleSubmission.csv",
  grade,
};
