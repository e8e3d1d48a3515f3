import { isDeepStrictEqual } from 'node:util';
import { recordAudit, type Actor } from '../../audit/record';
import { AppError } from '../../shared/errors';
import type { AdminResource, Row, Trx, WriteActor, WriteHook } from '../resource';
import { normalized } from './rows';

/** Who writes through the console, and the request it came with (for the audit log). */
export interface WriteContext {
  actor: WriteActor;
  requestId: string | null;
}

export const auditActor = ({ id, email }: WriteActor): Actor => ({ id, email });

export function writeHook(trx: Trx, context: WriteContext): WriteHook {
  return {
    trx,
    actor: context.actor,
    audit: (entry) => recordAudit(trx, { ...entry, actor: auditActor(context.actor), requestId: context.requestId }),
  };
}

/** Unchanged read-only fields may come back (react-admin sends whole records); changed or unknown ones may not. */
export function checkUnwritable(resource: AdminResource, body: Row, writable: ReadonlySet<string>, current: Row): void {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (writable.has(key)) continue;
    if (!Object.hasOwn(current, key)) errors[key] = `is not a field of ${resource.name}`;
    else if (!isDeepStrictEqual(normalized(value), normalized(current[key]))) errors[key] = 'is read-only';
  }
  if (Object.keys(errors).length) {
    const summary = Object.entries(errors)
      .map(([k, m]) => `${k} ${m}`)
      .join('; ');
    throw new AppError('validation-failed', `Invalid request: ${summary}`, errors);
  }
}

/** A unique or check violation names its field, so the form shows the message under it. */
export function explainConstraint(resource: AdminResource, error: unknown): never {
  const native = ((error as { nativeError?: unknown }).nativeError ?? error) as {
    code?: string;
    constraint?: string;
  };
  const known = native.constraint ? resource.constraintFields?.[native.constraint] : undefined;
  if (known && native.code === '23505')
    throw new AppError('already-exists', `${known.field} ${known.message}`, { [known.field]: known.message });
  if (known && native.code === '23514')
    throw new AppError('validation-failed', `${known.field} ${known.message}`, { [known.field]: known.message });
  throw error;
}

/** JSON columns go in as JSON text; everything else as it is. */
export function serialize(resource: AdminResource, values: Row): Row {
  const json = new Set(resource.model.jsonAttributes ?? []);
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, json.has(k) && v !== null ? JSON.stringify(v) : v]),
  );
}
