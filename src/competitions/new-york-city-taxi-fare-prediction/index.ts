import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("new-york-city-taxi-fare-prediction", { grade });
