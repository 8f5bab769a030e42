import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("kuzushiji-recognition", { grader: () => import("./grade.js") });
