import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("ml2021spring-hw2", { grader: () => import("./grade.js") });
