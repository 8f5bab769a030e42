import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "us-patent-phrase-to-phrase-matching",
  name: "U.S. Patent Phrase to Phrase Matching",
  type: "code",
  complexity: "medium",
  metric: "pearson-correlation-coefficient",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
