import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { baseFaceFile, faceFile, scriptOf } from '../certificates/typesetting/faces';
import { originalKey, type ImageStore } from '../media/images';
import { readAll } from '../media/storage';
import type { School } from '../school/schemas';
import { contrast } from './brand-palette';
import { icoOf } from './ico';

/*
 * The site's icons, made from the school's logo: the favicon, the home-screen icons and the manifest's. A logo is
 * set in the middle of a white square (any shape fits; a transparent one stays legible on a dark tab); a school
 * with no logo gets the first letter of its name, white or black (whichever reads) on its accent.
 */

/** sharp and fontkit load with the first icon asked for, not with the server. */
const loadSharp = () => import('sharp').then((module) => module.default);

/** The icons served, by their address, and the square size of each. */
export const ICON_SIZES = {
  '/apple-touch-icon.png': 180,
  '/icon-192.png': 192,
  '/icon-512.png': 512,
} as const;
export type IconPath = keyof typeof ICON_SIZES;
/** The sizes inside /favicon.ico: a tab's, a bookmark's and a desktop shortcut's. */
const FAVICON_SIZES = [16, 32, 48];

export type IconSchool = Pick<School, 'name' | 'accentColor' | 'logo'>;

/** What the icons are made of, as a short hash: the icons' ETag and the links' `?v=`, new whenever one changes. */
export function iconVersion(school: IconSchool): string {
  const what = [school.logo?.key ?? '', school.accentColor, monogramLetter(school.name)].join('\n');
  return createHash('sha1').update(what).digest('base64url').slice(0, 16);
}

/** The first letter (or digit) of the name, in capitals; none for a name without one. */
function monogramLetter(name: string): string {
  const first = /[\p{L}\p{N}]/u.exec(name)?.[0];
  return first ? first.toLocaleUpperCase('en') : '';
}

const faces = new Map<string, Promise<import('@pdf-lib/fontkit').Font>>();
/** The bold Noto Sans face of the letter's script, the certificates' own (read once each). */
function monogramFace(letter: string) {
  const script = scriptOf(letter);
  const file = script ? faceFile(script) : baseFaceFile('bold');
  if (!faces.has(file)) {
    faces.set(
      file,
      Promise.all([import('@pdf-lib/fontkit'), readFile(file)]).then(([{ default: fontkit }, bytes]) =>
        fontkit.create(bytes),
      ),
    );
  }
  return faces.get(file)!;
}

/**
 * The glyph of `letter` in its script's Noto Sans Bold as an SVG path centred in a `size` square (drawn from the
 * font, so no font need be installed on the server); null when the face lacks it.
 */
async function letterPath(letter: string, size: number): Promise<string | null> {
  if (!letter) return null;
  const font = await monogramFace(letter);
  const codePoint = letter.codePointAt(0)!;
  if (!font.hasGlyphForCodePoint(codePoint)) return null;
  const glyph = font.glyphForCodePoint(codePoint);
  const { minX, minY, maxX, maxY } = glyph.bbox;
  // The letter fills about 58 % of the height (less when wide), centred by its own outline, not the font's metrics.
  const scale = Math.min((0.58 * size) / (maxY - minY), (0.7 * size) / (maxX - minX));
  const x = size / 2 - (scale * (minX + maxX)) / 2;
  const y = size / 2 + (scale * (minY + maxY)) / 2;
  return `<path transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" d="${glyph.path.toSVG()}"/>`;
}

/** Square for the home screens (which cut their own shape), rounded in a browser's tab. */
async function monogram(school: IconSchool, size: number): Promise<Buffer> {
  const corner = size <= 48 ? Math.round(size * 0.18) : 0;
  const accent = school.accentColor;
  const ink = contrast('#ffffff', accent) >= contrast('#000000', accent) ? '#ffffff' : '#000000';
  const letter = await letterPath(monogramLetter(school.name), size);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}"><rect width="${size}" height="${size}" rx="${corner}" fill="${accent}"/><g fill="${ink}">${letter ?? ''}</g></svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function fromLogo(logo: Buffer, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const inner = Math.round(size * 0.84);
  const margin = size - inner;
  const white = { r: 255, g: 255, b: 255, alpha: 1 };
  const fitted = await sharp(logo)
    .autoOrient()
    .resize(inner, inner, { fit: 'contain', background: white })
    .flatten({ background: white })
    .toBuffer();
  return sharp(fitted)
    .extend({
      top: Math.floor(margin / 2),
      bottom: Math.ceil(margin / 2),
      left: Math.floor(margin / 2),
      right: Math.ceil(margin / 2),
      background: white,
    })
    .png()
    .toBuffer();
}

/**
 * Makes the icons of the school as it is now: each is made once per version (iconVersion) and kept until the school
 * changes. A logo whose original is missing from the storage falls back to the monogram.
 */
export function siteIcons({ images }: { images: Pick<ImageStore, 'storage'> }) {
  let kept: { version: string; made: Map<string, Promise<Buffer>> } | null = null;

  async function original(school: IconSchool): Promise<Buffer | null> {
    if (!school.logo) return null;
    const stored = await images.storage.get(originalKey(school.logo.key));
    return stored ? readAll(stored.body) : null;
  }

  async function square(school: IconSchool, size: number): Promise<Buffer> {
    const logo = await original(school);
    return logo ? fromLogo(logo, size) : monogram(school, size);
  }

  const makers: Record<IconPath | '/favicon.ico', (school: IconSchool) => Promise<Buffer>> = {
    '/favicon.ico': async (school) =>
      icoOf(await Promise.all(FAVICON_SIZES.map(async (size) => ({ size, png: await square(school, size) })))),
    ...(Object.fromEntries(
      Object.entries(ICON_SIZES).map(([path, size]) => [path, (school: IconSchool) => square(school, size)]),
    ) as Record<IconPath, (school: IconSchool) => Promise<Buffer>>),
  };

  return {
    /** The icon at `path` for `school`, and its version. */
    async icon(path: IconPath | '/favicon.ico', school: IconSchool): Promise<{ bytes: Buffer; version: string }> {
      const version = iconVersion(school);
      if (kept?.version !== version) kept = { version, made: new Map() };
      let bytes = kept.made.get(path);
      if (!bytes) {
        const { made } = kept;
        bytes = makers[path](school);
        made.set(path, bytes);
        bytes.catch(() => made.delete(path)); // a failure is not kept: the next request tries again
      }
      return { bytes: await bytes, version };
    },
  };
}

export type SiteIcons = ReturnType<typeof siteIcons>;
