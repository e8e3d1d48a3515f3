/**
 * Group commit: work asked for concurrently is done in batches, each caller answered when its batch is done. A batch
 * takes everything waiting (up to `max`) as soon as a runner is free; nothing ever waits for a batch to fill, so a
 * lone call is a batch of one. At most `runners` batches run at once (one's waits on the database and the provider
 * overlap another's). `run` answers one result per item, in order; when it throws, every caller of that batch gets
 * the error.
 */
export function groupCommit<T, R>(run: (items: T[]) => Promise<R[]>, max: number, runners = 1) {
  const waiting: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let running = 0;

  async function drain(): Promise<void> {
    running++;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, max);
      try {
        const results = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    running--;
  }

  return (item: T): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running < runners) void drain();
    });
}
