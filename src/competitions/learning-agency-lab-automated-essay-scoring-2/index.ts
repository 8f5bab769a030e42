import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("learning-agency-lab-automated-essay-scoring-2", { grade });
