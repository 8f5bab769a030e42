/** Earth radius of the competition's metric, in metres. */
const RADIUS = 6_371_000;

/**
 * Great-circle distance in metres between two points given in radians. `cosLat1` is cos(lat1),
 * passed in because a caller may need numpy's reduced-precision value of it.
 */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number, cosLat1: number): number {
  const sLat = Math.sin((lat2 - lat1) / 2);
  const sLng = Math.sin((lng2 - lng1) / 2);
  const a = sLat * sLat + cosLat1 * Math.cos(lat2) * (sLng * sLng);
  return 2 * RADIUS * Math.asin(Math.sqrt(a));
}
