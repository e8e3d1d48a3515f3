/** Labels shared across the console's own components (confirmations, actions, empty states, sign-in). */
export const consoleLabels = {};
