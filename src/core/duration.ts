/** Whole seconds split into hours, minutes and seconds, plus a two-digit padder: the one place durations are cut up. */
export function hms(totalSeconds: number): { h: number; m: number; s: number } {
  const t = Math.max(0, Math.floor(totalSeconds));
  return { h: Math.floor(t / 3600), m: Math.floor((t % 3600) / 60), s: t % 60 };
}

/** n as at least two digits ("05"). */
export function pad2(n: number): string {
  return String(n).padStart(2, "0");
}
