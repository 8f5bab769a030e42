import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("nomad2018-predict-transparent-conductors", { grade });
