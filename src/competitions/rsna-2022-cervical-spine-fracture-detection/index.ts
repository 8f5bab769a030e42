import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "rsna-2022-cervical-spine-fracture-detection",
  name: "RSNA 2022 Cervical Spine Fracture Detection",
  type: "code",
  complexity: "high",
  metric: "weighted-multi-label-log-loss",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
