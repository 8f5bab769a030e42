import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("google-research-identify-contrails-reduce-global-warming", { grade });
