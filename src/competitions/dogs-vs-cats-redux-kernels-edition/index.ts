import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("dogs-vs-cats-redux-kernels-edition", { grade });
