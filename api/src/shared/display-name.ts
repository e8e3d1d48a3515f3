/** A display name's length, after trimming: the API refuses others, the storefront's settings count down to it. */
export const DISPLAY_NAME_LENGTH = { min: 2, max: 60 } as const;

/** One line of typed text: no control characters (a line break, a tab, DEL would break the layout it is shown in). */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
