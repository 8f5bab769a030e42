import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "hotel-id-2021-fgvc8",
  name: "Hotel-ID to Combat Human Trafficking 2021 - FGVC8",
  type: "code",
  complexity: "medium",
  metric: "map-at-5",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
