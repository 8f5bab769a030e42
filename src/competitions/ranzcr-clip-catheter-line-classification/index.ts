import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "ranzcr-clip-catheter-line-classification",
  name: "RANZCR CLiP - Catheter and Line Position Challenge",
  type: "code",
  complexity: "low",
  category: "Image Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
