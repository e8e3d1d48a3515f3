/** How a batcher takes its work (`groupCommit`). */
export interface GroupCommitLimits {
  /** The most items one batch takes. */
  max: number;
  /** Batches run at once (one's waits on the database and the provider overlap another's). */
  runners: number;
  /**
   * Items waiting before a runner beyond the first starts (default 1): a lone call never waits, but a second runner
   * taking each newcomer as a batch of its own would leave the first's batches small and pay a batch's fixed cost
   * for every few items.
   */
  joinAt?: number;
  /** Items waiting for a runner, at most: one more is refused at once with `full()`, never queued without end. */
  waitingAtMost: number;
  full: () => Error;
}

/** Gives the caller of the batch's `index`-th item its result; later answers to the same item are ignored. */
export type AnswerOne<R> = (index: number, result: R) => void;

/**
 * Group commit: work asked for concurrently is done in batches. A batch takes everything waiting (up to `max`) as
 * soon as a runner is free; nothing ever waits for a batch to fill, so a lone call is a batch of one. `run` answers
 * each item through `answer` as soon as its own result is known, so one slow item holds no other caller; a runner is
 * free again once `run` has settled. An item `run` left unanswered gets `run`'s error (or one saying so).
 */
export function groupCommit<T, R>(
  run: (items: T[], answer: AnswerOne<R>) => Promise<void>,
  { max, runners, joinAt = 1, waitingAtMost, full }: GroupCommitLimits,
) {
  type Waiting = { item: T; resolve: (r: R) => void; reject: (e: unknown) => void };
  const waiting: Waiting[] = [];
  let running = 0;

  async function drain(): Promise<void> {
    running++;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, max);
      let failure: unknown = new Error('The batch answered no result for this item.');
      try {
        await run(
          batch.map((w) => w.item),
          (index, result) => batch[index]?.resolve(result),
        );
      } catch (error) {
        failure = error;
      }
      // A promise settles once: those answered already keep their result.
      for (const w of batch) w.reject(failure);
    }
    running--;
  }

  return (item: T): Promise<R> => {
    if (waiting.length >= waitingAtMost) return Promise.reject(full());
    return new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running === 0 || (running < runners && waiting.length >= joinAt)) void drain();
    });
  };
}
