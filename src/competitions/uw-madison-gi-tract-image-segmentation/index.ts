import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "uw-madison-gi-tract-image-segmentation",
  name: "UW-Madison GI Tract Image Segmentation",
  type: "code",
  complexity: "medium",
  metric: "dice-hausdorff-combo",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
