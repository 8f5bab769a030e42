import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("dogs-vs-cats-redux-kernels-edition", { grader: () => import("./grade.js") });
