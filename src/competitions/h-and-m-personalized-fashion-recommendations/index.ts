import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("h-and-m-personalized-fashion-recommendations", {
  grade,
  category: "Recommender Systems",
});
