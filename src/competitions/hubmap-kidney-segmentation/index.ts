import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "hubmap-kidney-segmentation",
  name: "HuBMAP - Hacking the Kidney",
  type: "code",
  complexity: "medium",
  metric: "dice-coefficient",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
