import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "whale-categorization-playground",
  name: "Humpback Whale Identification Challenge",
  type: "simple",
  complexity: "medium",
  metric: "MAP@5",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
