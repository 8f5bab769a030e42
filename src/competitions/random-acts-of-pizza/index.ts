import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("random-acts-of-pizza", { grader: () => import("./grade.js") });
