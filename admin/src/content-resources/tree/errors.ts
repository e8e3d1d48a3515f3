/** The API's message from a failed request (react-admin's HttpError carries it), or a fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** `{ field: message }` from the API's error body, for react-admin forms. */
export function fieldErrors(error: unknown): Record<string, string> | undefined {
  const body = (error as { body?: { errors?: unknown } } | undefined)?.body;
  const errors = body?.errors;
  return errors && typeof errors === 'object' && Object.keys(errors).length
    ? (errors as Record<string, string>)
    : undefined;
}
