import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "freesound-audio-tagging-2019",
  name: "Freesound Audio Tagging 2019",
  type: "code",
  complexity: "medium",
  metric: "label-ranking-average-precision",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
