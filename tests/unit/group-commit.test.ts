import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../api/src/shared/group-commit';

/** A promise and the function that settles it, for a test to hold work until it says so. */
function held<T = void>() {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
}

const limits = { max: 10, runners: 1, waitingAtMost: 3, full: () => new Error('full') };

describe('group commit', () => {
  it('answers each caller as soon as its own result is known, while a slow one of its batch goes on', async () => {
    const slow = held();
    const batches: number[][] = [];
    const add = groupCommit<number, number>(async (items, answer) => {
      batches.push(items);
      await Promise.all(
        items.map(async (item, n) => {
          if (item === 0) await slow.promise;
          answer(n, item * 10);
        }),
      );
    }, limits);
    const first = add(5); // a lone call: a batch of its own
    const [quick, slowOne, other] = [add(1), add(0), add(2)];
    expect(await first).toBe(50);
    expect(await Promise.all([quick, other])).toEqual([10, 20]);
    slow.release();
    expect(await slowOne).toBe(0);
    expect(batches).toEqual([[5], [1, 0, 2]]);
  });

  it('refuses a call at once when as many as it allows are waiting, and gives an unanswered item the error', async () => {
    const busy = held();
    const add = groupCommit<number, number>(async (items, answer) => {
      await busy.promise;
      items.forEach((item, n) => {
        if (item === 3) throw new Error('broken');
        answer(n, item);
      });
    }, limits);
    const running = add(0);
    const waiting = [add(1), add(2), add(3)];
    await expect(add(4)).rejects.toThrow('full');
    busy.release();
    expect(await running).toBe(0);
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      1,
      2,
      'broken',
    ]);
    // Room again once the batch is taken.
    await expect(add(5)).resolves.toBe(5);
  });

  it('starts a second runner only once `joinAt` items wait, so newcomers gather rather than go one by one', async () => {
    const gate = held();
    const batches: number[][] = [];
    const add = groupCommit<number, number>(
      async (items, answer) => {
        batches.push(items);
        await gate.promise;
        items.forEach((item, n) => answer(n, item));
      },
      { max: 10, runners: 2, joinAt: 3, waitingAtMost: 20, full: () => new Error('full') },
    );
    const answers = [add(0)]; // alone: the first runner takes it at once
    answers.push(add(1), add(2)); // two waiting: not yet enough for the second runner
    expect(batches).toEqual([[0]]);
    answers.push(add(3)); // three: the second runner takes them together
    expect(batches).toEqual([[0], [1, 2, 3]]);
    answers.push(add(4)); // waits for whichever runner is free first: never stranded
    gate.release();
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3, 4]);
    expect(batches).toEqual([[0], [1, 2, 3], [4]]);
  });
});
