import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "vinbigdata-chest-xray-abnormalities-detection",
  name: "VinBigData Chest X-ray Abnormalities Detection",
  type: "simple",
  complexity: "high",
  metric: "mAP-at-IoU>0.4",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
