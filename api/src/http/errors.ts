import { ZodError } from 'zod';
import { AppError } from '../shared/errors';

/** Turns anything thrown into the one error model; `null` means an unexpected failure (answered as 500). */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return fromZod(error);
  const pgCode = postgresCode(error);
  if (pgCode) return fromPostgres(pgCode, error as PgErrorFields);
  const status = (error as { status?: number })?.status;
  const type = (error as { type?: string })?.type;
  if (status === 413 || type === 'entity.too.large')
    return new AppError('payload-too-large', 'The request body is too large.');
  if (status === 400 && (type === 'entity.parse.failed' || error instanceof SyntaxError)) {
    return new AppError('invalid-json', 'The request body is not valid JSON.');
  }
  if ((error as { name?: string })?.name === 'NotFoundError') return new AppError('not-found', 'Not found.');
  return null;
}

function fromZod(error: ZodError): AppError {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    fieldErrors[key] ??= issue.message;
  }
  const summary = Object.entries(fieldErrors)
    .map(([field, message]) => (field === '_' ? message : `${field}: ${message}`))
    .join('; ');
  return new AppError('validation-failed', `Invalid request: ${summary}`, fieldErrors);
}

interface PgErrorFields {
  code: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

function postgresCode(error: unknown): string | undefined {
  // Objection wraps driver errors (nativeError); raw knex queries throw them as they are.
  const candidate = (error as { nativeError?: unknown })?.nativeError ?? error;
  const code = (candidate as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function fromPostgres(code: string, error: PgErrorFields): AppError | null {
  const native = ((error as { nativeError?: PgErrorFields }).nativeError ?? error) as PgErrorFields;
  // Messages are for people: never a constraint, table or column name of the database (they are in the log).
  switch (code) {
    case '23505':
      return new AppError('already-exists', 'This conflicts with an existing record.');
    case '23503':
    case '23001': // ON DELETE RESTRICT
      return new AppError(
        'reference-conflict',
        'This refers to a record that does not exist, or is still used by other records.',
      );
    case '23514':
      return new AppError('constraint-violated', 'A value is outside what is allowed.');
    case '23502': {
      const field = native.column ? camelCase(native.column) : undefined;
      return new AppError(
        'validation-failed',
        field ? `${field} is required.` : 'A required value is missing.',
        field ? { [field]: 'Required' } : undefined,
      );
    }
    case '22021': // a NUL or invalid byte in text
    case '22P05': // the same inside JSON
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
      return new AppError('validation-failed', 'A value has the wrong format or is out of range.');
    case '40001':
    case '40P01':
      return new AppError('conflict', 'The record changed at the same time; try again.');
    default:
      return null;
  }
}

/** A database column as the API names the field (snake_case → camelCase). */
function camelCase(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
