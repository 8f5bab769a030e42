import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("icecube-neutrinos-in-deep-ice", { grade });
