import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("tgs-salt-identification-challenge", { grader: () => import("./grade.js") });
