import busboy from 'busboy';
import type { Context } from 'koa';
import { AppError } from '../shared/errors';

/** Room for the multipart framing around the file (boundaries, part headers). */
const FRAMING_BYTES = 64 * 1024;

const tooLarge = (maxBytes: number) =>
  new AppError('payload-too-large', `The file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`, {
    file: `At most ${Math.round(maxBytes / (1024 * 1024))} MB`,
  });

/**
 * Reads the one file of a multipart/form-data request (the field `field`) into memory, refusing more than
 * `maxBytes` with a 413 as soon as it is known: from Content-Length before reading, else once the bytes pass it
 * (the rest is read and dropped, so the client hears the answer). What the file claims to be (its name, its
 * Content-Type) is not looked at: the caller checks the bytes.
 */
export async function readUploadedFile(ctx: Context, field: string, maxBytes: number): Promise<Buffer> {
  return (await readNamedUpload(ctx, field, maxBytes)).bytes;
}

/**
 * The same, with the name the file was sent under (RFC 7578: raw UTF-8, or RFC 5987's `filename*`), for a caller
 * that keeps it (a lesson's download); empty when none was given.
 */
export async function readNamedUpload(
  ctx: Context,
  field: string,
  maxBytes: number,
): Promise<{ bytes: Buffer; name: string }> {
  if (!ctx.is('multipart/form-data')) {
    throw new AppError('validation-failed', `Send the file as multipart/form-data, in a field named ${field}.`, {
      [field]: 'Choose a file',
    });
  }
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_BYTES) throw tooLarge(maxBytes);

  let fileName = '';
  const file = await new Promise<Buffer | null>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 4096, parts: 12 },
      });
    } catch {
      reject(new AppError('validation-failed', 'The multipart body is malformed.', { [field]: 'Choose a file' }));
      return;
    }
    let found: Buffer | null = null;
    let failure: AppError | null = null;
    parser.on('file', (name, stream, info) => {
      if (name !== field || found || failure) {
        stream.resume();
        return;
      }
      fileName = info.filename ?? '';
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = tooLarge(maxBytes);
      });
      stream.on('end', () => {
        if (!failure) found = Buffer.concat(chunks);
      });
    });
    parser.on('error', () =>
      reject(new AppError('validation-failed', 'The multipart body is malformed.', { [field]: 'Choose a file' })),
    );
    parser.on('close', () => (failure ? reject(failure) : resolve(found)));
    ctx.req.once('error', reject);
    ctx.req.pipe(parser);
  });
  if (!file || file.length === 0) {
    throw new AppError('validation-failed', `No file was sent in the field ${field}.`, { [field]: 'Choose a file' });
  }
  return { bytes: file, name: fileName };
}
