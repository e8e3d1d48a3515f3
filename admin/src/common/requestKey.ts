/**
 * A click's own key for an action that must happen once however often it is sent (a double click, a retried
 * request): 32 random hex digits. crypto.randomUUID needs a secure context; this does not.
 */
export const newRequestKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
