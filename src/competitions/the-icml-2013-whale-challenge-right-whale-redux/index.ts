import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("the-icml-2013-whale-challenge-right-whale-redux", { grade });
