/**
 * The API's answers as the apps receive them: JSON carries a `Date` as its ISO string, so `Wire<T>` is `T` with
 * every `Date` (however deep) turned into `string`. The answer types live in each domain's schemas.ts, typed as the
 * services build them; the apps take `Wire<Answer>` with `import type`, so a change to an answer is checked on
 * both sides (tests/unit/contract.test.ts). No dependencies: the apps' typecheck reads this file as it is.
 */
export type Wire<T> = T extends Date
  ? string
  : T extends (infer Item)[]
    ? Wire<Item>[]
    : T extends readonly (infer Item)[]
      ? readonly Wire<Item>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

/** A list answer: `{ data: [...] }`, react-admin's envelope, also used by the storefront's lists. */
export interface ListAnswer<T> {
  data: T[];
}

/** A single record in react-admin's envelope: `{ data: {...} }`. */
export interface DataAnswer<T> {
  data: T;
}
