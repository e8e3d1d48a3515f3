/**
 * A course's length from its lessons' lengths (docs/domain.md §11): the sum only when every lesson has one. One
 * 20-second video among nine lessons of unknown length is not a one-minute course, so a partial sum is never shown:
 * the pages say how many lessons instead. No dependencies: the API and the storefront both take it as it is.
 */
export function courseLength(lessonMinutes: readonly (number | null)[]): number | null {
  if (lessonMinutes.length === 0) return null;
  let sum = 0;
  for (const minutes of lessonMinutes) {
    if (minutes === null) return null;
    sum += minutes;
  }
  return sum;
}

/** "PT2H30M" for 150 minutes: a length as ISO 8601 writes a duration (schema.org's courseWorkload). */
export function isoDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours ? `${hours}H` : ''}${rest || !hours ? `${rest}M` : ''}`;
}
