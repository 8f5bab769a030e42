import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("nomad2018-predict-transparent-conductors", { grader: () => import("./grade.js") });
