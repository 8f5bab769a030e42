import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("icecube-neutrinos-in-deep-ice", { grader: () => import("./grade.js") });
