import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "nfl-player-contact-detection",
  name: "1st and Future - Player Contact Detection",
  type: "code",
  complexity: "high",
  metric: "matthews-correlation-coefficient",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
