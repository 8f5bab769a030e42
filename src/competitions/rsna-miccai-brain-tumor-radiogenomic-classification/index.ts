import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "rsna-miccai-brain-tumor-radiogenomic-classification",
  name: "RSNA-MICCAI Brain Tumor Radiogenomic Classification",
  type: "code",
  complexity: "high",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
