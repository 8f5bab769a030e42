import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("champs-scalar-coupling", { grader: () => import("./grade.js") });
