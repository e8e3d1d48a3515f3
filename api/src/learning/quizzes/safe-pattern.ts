/**
 * Whether a short answer's pattern is safe to run on learners' answers (docs/domain.md §11): short, compiles, and
 * without the shapes that make a backtracking engine take exponential time on a crafted answer: a repeated group
 * that itself repeats or branches (`(a+)+`, `(a|aa)*`), backreferences and lookarounds. Checked when the quiz is
 * written; learners' answers are short too (ANSWER_MAX), so what is left runs in bounded time.
 */
export const PATTERN_MAX = 200;

/** Why a pattern is refused, or null when it is safe. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'is required';
  if (pattern.length > PATTERN_MAX) return `must be at most ${PATTERN_MAX} characters`;
  try {
    new RegExp(pattern, 'iu');
  } catch {
    return 'is not a valid regular expression';
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'may not use backreferences';
  if (/\(\?<?[=!]/.test(pattern)) return 'may not use lookarounds';
  if (nestedRepetition(pattern)) return 'may not repeat a group that itself repeats or branches';
  // Several repeats side by side cost the answer's length to their number: a few at most.
  return repetitions(pattern) > REPEATS_MAX ? `may repeat at most ${REPEATS_MAX} times (*, + or {n,m})` : null;
}

const REPEATS_MAX = 3;

function repetitions(pattern: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (repeatsAt(pattern, i)) count++;
  }
  return count;
}

/** Whether a quantifier starts at `i`, and whether it repeats without bound (or more than once). */
function repeatsAt(pattern: string, i: number): boolean {
  const c = pattern[i];
  if (c === '*' || c === '+') return true;
  if (c !== '{') return false;
  const range = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!range) return false;
  if (range[2] === undefined) return Number(range[1]) > 1;
  return range[3] === '' || Number(range[3]) > 1;
}

function nestedRepetition(pattern: string): boolean {
  // Per open group: whether something inside it repeats or branches.
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') groups.push(false);
    else if (c === '|' && groups.length) groups[groups.length - 1] = true;
    else if (c === ')') {
      const risky = groups.pop() ?? false;
      if (risky && repeatsAt(pattern, i + 1)) return true;
      // A group that repeats or branches makes its enclosing group risky in turn.
      if (groups.length && (risky || repeatsAt(pattern, i + 1) || pattern[i + 1] === '?'))
        groups[groups.length - 1] = true;
    } else if (
      (c === '*' || c === '+' || c === '?' || c === '{') &&
      groups.length &&
      (c !== '{' || repeatsAt(pattern, i))
    )
      groups[groups.length - 1] = true;
  }
  return false;
}
