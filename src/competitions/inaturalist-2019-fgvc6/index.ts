import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("inaturalist-2019-fgvc6", { grader: () => import("./grade.js") });
