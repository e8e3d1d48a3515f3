/**
 * A service of small named steps, each `step(deps, ...args)`: `bindDeps(deps)(step)` is the method callers see, so
 * the service's file lists its steps and each step's module says what it needs.
 */
export const bindDeps =
  <D>(deps: D) =>
  <A extends unknown[], R>(step: (deps: D, ...args: A) => R) =>
  (...args: A): R =>
    step(deps, ...args);
