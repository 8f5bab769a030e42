import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "mlsp-2013-birds",
  name: "MLSP 2013 Bird Classification Challenge",
  type: "simple",
  complexity: "low",
  category: "Audio Classification",
  metric: "auc-roc",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
