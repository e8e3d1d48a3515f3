/** A day in milliseconds: a UTC day (a zone's day may be an hour longer or shorter, which callers say where it matters). */
export const DAY_MS = 86_400_000;
