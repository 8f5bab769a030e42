import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "smartphone-decimeter-2022",
  name: "Google Smartphone Decimeter Challenge 2022",
  type: "simple",
  complexity: "high",
  metric: "average-haversine-distance",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
