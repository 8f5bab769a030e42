import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "spooky-author-identification",
  name: "Spooky Author Identification",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
