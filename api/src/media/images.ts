import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import { AppError } from '../shared/errors';
import { IMAGE_KEY, IMAGE_WIDTHS, type AvatarFields, type ImageFields } from './schemas';
import { readAll, type MediaStorage } from './storage';

/** sharp and its native library load with the first image handled, not with the server. */
const loadSharp = () => import('sharp').then((module) => module.default);

/** The largest upload taken, in bytes. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The most pixels an original may have (about 8000 × 6000): a small file can decode to gigabytes. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The width `src` asks for: a product card or a page column, sharp on a phone's screen. */
const DEFAULT_WIDTH = 960;
const AVATAR_WIDTHS = [160, 320] as const;

/** The types taken, by sharp's name for what it found in the bytes (an AVIF is a HEIF with AV1 inside). */
const TYPES = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  avif: { extension: 'avif', contentType: 'image/avif' },
} as const;
type ImageType = keyof typeof TYPES;

/** What a variant is sent as, by what the browser accepts: AVIF, else WebP, else the original's kind. */
export type VariantFormat = 'avif' | 'webp' | 'jpeg' | 'png';
const VARIANT_TYPES: Record<VariantFormat, { extension: string; contentType: string }> = {
  avif: { extension: 'avif', contentType: 'image/avif' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
};

interface ParsedKey {
  hash: string;
  width: number;
  height: number;
  extension: string;
}

export function parseImageKey(key: string): ParsedKey | null {
  const match = IMAGE_KEY.exec(key);
  if (!match) return null;
  return { hash: match[1]!, width: Number(match[2]), height: Number(match[3]), extension: match[4]! };
}

/** Where an image's original is kept, and the folder of its resized variants. */
export const originalKey = (key: string) => `images/${key}`;
export const variantsPrefix = (key: string) => `image-variants/${key}/`;

/** The address of an image at one of the served widths. */
export function imageUrl(key: string, width: number): string {
  return `/media/images/${key}?w=${width}`;
}

/**
 * The served widths for an original `originalWidth` wide, each with the width it really has: every listed width
 * below the original, then the first one at or above it standing for the original's own width (no upscaling).
 */
function servedWidths(originalWidth: number, widths: readonly number[]): { asked: number; actual: number }[] {
  const served: { asked: number; actual: number }[] = [];
  for (const width of widths) {
    if (width < originalWidth) served.push({ asked: width, actual: width });
    else {
      served.push({ asked: width, actual: originalWidth });
      break;
    }
  }
  return served;
}

function srcSetOf(key: string, widths: { asked: number; actual: number }[]): string {
  return widths.map(({ asked, actual }) => `${imageUrl(key, asked)} ${actual}w`).join(', ');
}

/**
 * A product's picture as the storefront's answers carry it (null without one): `src` at 960 px or the original's
 * width if smaller, `srcSet` at every served width, the original's size and the alt text.
 */
export function imageFields(key: string | null | undefined, alt?: string | null): ImageFields | null {
  const parsed = key ? parseImageKey(key) : null;
  if (!key || !parsed) return null;
  const widths = servedWidths(parsed.width, IMAGE_WIDTHS);
  const src = widths.find((w) => w.asked >= DEFAULT_WIDTH) ?? widths[widths.length - 1]!;
  return {
    src: imageUrl(key, src.asked),
    srcSet: srcSetOf(key, widths),
    width: parsed.width,
    height: parsed.height,
    alt: alt ?? '',
  };
}

/** A person's picture as the storefront's answers carry it (null without one): 160 and 320 px. */
export function avatarFields(key: string | null | undefined): AvatarFields | null {
  const parsed = key ? parseImageKey(key) : null;
  if (!key || !parsed) return null;
  const widths = servedWidths(parsed.width, AVATAR_WIDTHS);
  return { src: imageUrl(key, widths[0]!.asked), srcSet: srcSetOf(key, widths) };
}

/** An upload that passed: its key and the facts the audit log keeps. */
export interface CheckedImage {
  key: string;
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

function typeOf(metadata: Metadata): ImageType | null {
  if (metadata.format === 'jpeg' || metadata.format === 'png' || metadata.format === 'webp') return metadata.format;
  if (metadata.format === 'heif' && metadata.compression === 'av1') return 'avif';
  return null;
}

const unsupported = () =>
  new AppError('unsupported-image-type', 'This file is not a JPEG, PNG, WebP or AVIF image.', {
    file: 'Choose a JPEG, PNG, WebP or AVIF image',
  });

/**
 * Checks an upload by its bytes, never its name or declared type: one of the four types (415 otherwise), within
 * the size and pixel limits (413, 422), and decodable to the last pixel (422). Its key follows from its bytes.
 */
export async function checkImage(bytes: Buffer): Promise<CheckedImage> {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError('payload-too-large', 'The image is larger than 10 MB.', { file: 'At most 10 MB' });
  }
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported();
  }
  const type = typeOf(metadata);
  if (!type) throw unsupported();
  // Width and height as the picture is shown: EXIF may say to turn it a quarter.
  const { width, height } = metadata.autoOrient;
  if (!width || !height) throw unreadable();
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new AppError(
      'image-too-many-pixels',
      `The image is ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} million pixels are taken.`,
      { file: `At most ${MAX_IMAGE_PIXELS / 1_000_000} million pixels` },
    );
  }
  if (width > 99_999 || height > 99_999) throw unreadable();
  try {
    // Decode every pixel once: a truncated or corrupt file fails here rather than when someone views it.
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).stats();
  } catch {
    throw unreadable();
  }
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  const { extension, contentType } = TYPES[type];
  return { key: `${hash}-${width}x${height}.${extension}`, bytes, contentType, width, height };
}

function unreadable() {
  return new AppError('image-unreadable', 'The image could not be read: the file is damaged or incomplete.', {
    file: 'The file is damaged or incomplete',
  });
}

/** What a browser accepts, as the variant's format: AVIF, else WebP, else JPEG (PNG for originals that may be transparent). */
export function variantFormat(key: string, accepts: { avif: boolean; webp: boolean }): VariantFormat {
  if (accepts.avif) return 'avif';
  if (accepts.webp) return 'webp';
  return parseImageKey(key)?.extension === 'jpg' ? 'jpeg' : 'png';
}

/** The width a variant really has (never more than the original's) and its stored name. */
export function variantOf(key: string, width: number, format: VariantFormat) {
  const parsed = parseImageKey(key);
  if (!parsed) return null;
  const actual = Math.min(width, parsed.width);
  const name = `${actual}.${VARIANT_TYPES[format].extension}`;
  return {
    width: actual,
    storageKey: `${variantsPrefix(key)}${name}`,
    contentType: VARIANT_TYPES[format].contentType,
    /** Strong: the same key, width and format are the same bytes on every replica. */
    etag: `"${parsed.hash}-${name}"`,
  };
}

export interface ServedVariant {
  body: NodeJS.ReadableStream | Buffer;
  size: number;
  contentType: string;
  etag: string;
  /** Whether it was read back from the storage (made earlier, by any replica) rather than made now. */
  stored: boolean;
}

async function encode(original: Buffer, width: number, format: VariantFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  const resized = sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS })
    .autoOrient()
    .resize({ width, withoutEnlargement: true });
  switch (format) {
    case 'avif':
      return resized.avif({ quality: 55, effort: 2 }).toBuffer();
    case 'webp':
      return resized.webp({ quality: 80 }).toBuffer();
    case 'jpeg':
      return resized.jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    case 'png':
      return resized.png({ compressionLevel: 9, palette: false }).toBuffer();
  }
}

/**
 * Stores originals and serves their resized variants. A variant is made once, from the original, and stored back
 * beside it, so the next request (on any replica) reads it; while one is being made here, other requests for it
 * wait for the same work.
 */
export function imageStore({ storage }: { storage: MediaStorage }) {
  const making = new Map<string, Promise<Buffer | null>>();

  async function make(key: string, storageKey: string, width: number, format: VariantFormat): Promise<Buffer | null> {
    const original = await storage.get(originalKey(key));
    if (!original) return null;
    const bytes = await encode(await readAll(original.body), width, format);
    await storage.put(storageKey, bytes, VARIANT_TYPES[format].contentType);
    return bytes;
  }

  return {
    storage,

    /** Puts a checked original in the storage (once: the same bytes are the same key). */
    async putOriginal(image: CheckedImage): Promise<void> {
      if (!(await storage.exists(originalKey(image.key)))) {
        await storage.put(originalKey(image.key), image.bytes, image.contentType);
      }
    },

    /** Removes an original and every variant made of it. */
    async removeAll(key: string): Promise<void> {
      await storage.deletePrefix(variantsPrefix(key));
      await storage.delete(originalKey(key));
    },

    /** The variant of `key` at `width` in `format`, from the storage or made now; null when there is no such image. */
    async variant(key: string, width: number, format: VariantFormat): Promise<ServedVariant | null> {
      const variant = variantOf(key, width, format);
      if (!variant) return null;
      const stored = await storage.get(variant.storageKey);
      if (stored) {
        return {
          body: stored.body,
          size: stored.size,
          contentType: variant.contentType,
          etag: variant.etag,
          stored: true,
        };
      }
      let work = making.get(variant.storageKey);
      if (!work) {
        work = make(key, variant.storageKey, variant.width, format).finally(() => making.delete(variant.storageKey));
        making.set(variant.storageKey, work);
      }
      const bytes = await work;
      if (!bytes) return null;
      return { body: bytes, size: bytes.length, contentType: variant.contentType, etag: variant.etag, stored: false };
    },
  };
}

export type ImageStore = ReturnType<typeof imageStore>;
