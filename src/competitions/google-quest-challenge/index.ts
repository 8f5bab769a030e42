import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "google-quest-challenge",
  name: "Google QUEST Q&A Labeling",
  type: "code",
  complexity: "medium",
  metric: "column-wise-spearman",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
