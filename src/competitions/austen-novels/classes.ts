/** The six novels, by the R package's object names: the source names, answer and submission columns (alphabetical). */
export const CLASSES = ["emma", "mansfieldpark", "northangerabbey", "persuasion", "prideprejudice", "sensesensibility"];
