import { AppError } from '../shared/errors';

/**
 * How deeply arrays and objects may nest in what a client sends. Nothing we accept comes near it; far deeper
 * values parse, but then overflow the stack of whatever walks them (a JSON.stringify, a comparison, PostgreSQL's
 * jsonb input) and would answer 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests deeper than `max`, measured without recursion (so any depth is safe to measure). */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

export function tooDeep(what = 'The request body'): AppError {
  return new AppError('invalid-json', `${what} nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`);
}
