import { AppError } from '../../shared/errors';

/** The largest file a lesson takes (a long slide deck as a PDF, a project as a zip). */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;
/** The most files one lesson lists. */
export const MAX_ATTACHMENTS_PER_LESSON = 30;

/** How the bytes must begin for the kind they claim to be (a renamed executable is not a PDF). */
type Signature = 'pdf' | 'zip' | 'ole' | 'png' | 'jpeg' | 'text';

const TEXT = (contentType: string) => ({ contentType: `${contentType}; charset=utf-8`, signature: 'text' as const });
const ZIP = (contentType: string) => ({ contentType, signature: 'zip' as const });

/**
 * The files a lesson may offer, by extension: what they are sent as and how their first bytes must look. Nothing
 * a browser would run or render as a page (HTML, SVG, scripts as such): a download is always sent as an attachment
 * with nosniff, and these types besides.
 */
const TYPES: Record<string, { contentType: string; signature: Signature }> = {
  pdf: { contentType: 'application/pdf', signature: 'pdf' },
  zip: ZIP('application/zip'),
  pptx: ZIP('application/vnd.openxmlformats-officedocument.presentationml.presentation'),
  docx: ZIP('application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
  xlsx: ZIP('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
  odp: ZIP('application/vnd.oasis.opendocument.presentation'),
  odt: ZIP('application/vnd.oasis.opendocument.text'),
  ods: ZIP('application/vnd.oasis.opendocument.spreadsheet'),
  key: ZIP('application/vnd.apple.keynote'),
  ppt: { contentType: 'application/vnd.ms-powerpoint', signature: 'ole' },
  png: { contentType: 'image/png', signature: 'png' },
  jpg: { contentType: 'image/jpeg', signature: 'jpeg' },
  jpeg: { contentType: 'image/jpeg', signature: 'jpeg' },
  txt: TEXT('text/plain'),
  md: TEXT('text/markdown'),
  csv: TEXT('text/csv'),
  json: TEXT('application/json'),
  ipynb: TEXT('application/x-ipynb+json'),
  yaml: TEXT('text/plain'),
  yml: TEXT('text/plain'),
  sql: TEXT('text/plain'),
  ts: TEXT('text/plain'),
  tsx: TEXT('text/plain'),
  js: TEXT('text/plain'),
  jsx: TEXT('text/plain'),
  mjs: TEXT('text/plain'),
  py: TEXT('text/plain'),
  rb: TEXT('text/plain'),
  go: TEXT('text/plain'),
  rs: TEXT('text/plain'),
  java: TEXT('text/plain'),
  kt: TEXT('text/plain'),
  swift: TEXT('text/plain'),
  c: TEXT('text/plain'),
  h: TEXT('text/plain'),
  cpp: TEXT('text/plain'),
  cs: TEXT('text/plain'),
  php: TEXT('text/plain'),
  sh: TEXT('text/plain'),
};

/** The extensions taken, for the console's file picker and the refusal's message. */
export const ATTACHMENT_EXTENSIONS = Object.keys(TYPES);

const startsWith = (bytes: Buffer, ...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);

function looksLike(bytes: Buffer, signature: Signature): boolean {
  switch (signature) {
    case 'pdf':
      return bytes.subarray(0, 5).toString('latin1') === '%PDF-';
    case 'zip':
      return startsWith(bytes, 0x50, 0x4b, 0x03, 0x04) || startsWith(bytes, 0x50, 0x4b, 0x05, 0x06);
    case 'ole':
      return startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
    case 'png':
      return startsWith(bytes, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'jpeg':
      return startsWith(bytes, 0xff, 0xd8, 0xff);
    case 'text':
      // UTF-8 without NUL: source code and notes, not a binary renamed .txt.
      return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
  }
}

/**
 * A file's name as uploaded, kept to show and to send back: its last path part, NFC, without control or
 * direction-override characters (which could make `exe.pdf` read as `fdp.exe`), at most 255 characters; any
 * script stays as written.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  const characters = [...cleaned];
  if (!cleaned || cleaned === '.' || cleaned === '..') {
    throw new AppError('validation-failed', 'The file has no name.', { file: 'Give the file a name' });
  }
  if (characters.length <= 255) return cleaned;
  // Too long: the start of the name, its extension kept.
  const extension = /\.[^.]{1,16}$/u.exec(cleaned)?.[0] ?? '';
  return characters.slice(0, 255 - [...extension].length).join('') + extension;
}

/** What an upload is sent back as, once its name's extension is on the list and its bytes look like it; else 415. */
export function checkAttachment(fileName: string, bytes: Buffer): { contentType: string } {
  const extension = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const type = Object.hasOwn(TYPES, extension) ? TYPES[extension]! : undefined;
  if (!type) {
    throw new AppError(
      'file-type-not-allowed',
      `A lesson takes slides, documents, code and archives (${ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(', ')}), not this file.`,
      { file: 'This kind of file is not taken' },
    );
  }
  if (!looksLike(bytes, type.signature)) {
    throw new AppError('file-type-not-allowed', `This file is not the .${extension} file its name says it is.`, {
      file: `Not a .${extension} file`,
    });
  }
  return { contentType: type.contentType };
}
