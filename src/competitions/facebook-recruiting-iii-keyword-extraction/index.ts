import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "facebook-recruiting-iii-keyword-extraction",
  name: "Facebook Recruiting III - Keyword Extraction",
  type: "simple",
  complexity: "medium",
  metric: "micro-f1-score",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
