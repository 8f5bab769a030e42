import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "3d-object-detection-for-autonomous-vehicles",
  name: "Lyft 3D Object Detection for Autonomous Vehicles",
  type: "simple",
  complexity: "high",
  metric: "mean-average-precision",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
