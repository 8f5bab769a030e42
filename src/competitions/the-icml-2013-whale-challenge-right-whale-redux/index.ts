import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "the-icml-2013-whale-challenge-right-whale-redux",
  name: "The ICML 2013 Whale Challenge - Right Whale Redux",
  type: "simple",
  complexity: "low",
  category: "Audio Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sampleSubmission.csv",
  grade,
};
