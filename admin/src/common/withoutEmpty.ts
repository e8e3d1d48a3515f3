/** Drops empty values, so a create request leaves optional fields to the API's defaults. */
export function withoutEmpty<T extends Record<string, unknown>>(data: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== null && value !== undefined && value !== ''),
  ) as Partial<T>;
}
