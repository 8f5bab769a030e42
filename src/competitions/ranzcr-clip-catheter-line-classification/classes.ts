/** The label columns upstream keeps in the sample submission (CVC - Normal and Swan Ganz are left out). */
export const CLASSES: readonly string[] = [
  "ETT - Abnormal",
  "ETT - Borderline",
  "ETT - Normal",
  "NGT - Abnormal",
  "NGT - Borderline",
  "NGT - Incompletely Imaged",
  "NGT - Normal",
  "CVC - Abnormal",
  "CVC - Borderline",
];
