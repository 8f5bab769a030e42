import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("bms-molecular-translation", { grader: () => import("./grade.js") });
