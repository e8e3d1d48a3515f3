/** A display name's length, after trimming: the API refuses others, the storefront's settings count down to it. */
export const DISPLAY_NAME_LENGTH = { min: 2, max: 60 } as const;
