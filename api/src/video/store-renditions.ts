import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaStorage } from '../media/storage';
import { masterKey, posterKey, renditionPrefix } from './keys';
import { renditionName } from './renditions';

const UPLOADS_AT_ONCE = 4;

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
};

async function runAll<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

/** Stores what ffmpeg made in `outputDir` under the version's keys; says whether it made a poster. */
export async function storeRenditions(
  storage: MediaStorage,
  outputDir: string,
  videoId: string,
  version: number,
  renditionHeights: number[],
): Promise<{ hasPoster: boolean }> {
  const put = async (file: string, key: string) =>
    storage.put(key, createReadStream(file), CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
  // Segments first, then the playlists that name them, the master last: whoever finds a playlist finds its files.
  for (const height of renditionHeights) {
    const folder = path.join(outputDir, renditionName(height));
    const segments = (await readdir(folder)).filter((name) => name.endsWith('.ts'));
    await runAll(segments, UPLOADS_AT_ONCE, (name) =>
      put(path.join(folder, name), `${renditionPrefix(videoId, version, height)}${name}`),
    );
    await put(path.join(folder, 'index.m3u8'), `${renditionPrefix(videoId, version, height)}index.m3u8`);
  }
  const poster = path.join(outputDir, 'poster.jpg');
  const hasPoster = await stat(poster).then(
    (found) => found.size > 0,
    () => false,
  );
  if (hasPoster) await put(poster, posterKey(videoId, version));
  await put(path.join(outputDir, 'master.m3u8'), masterKey(videoId, version));
  return { hasPoster };
}
