import type { z } from 'zod';
import { AppError } from '../../shared/errors';
import type { Row } from '../resource';

/**
 * An update's body as the edge reads it. react-admin sends whole records back, so what to validate is known only
 * once the service has the current row: it keeps the fields that changed and hands them to `parse`, the resource's
 * update schema applied here, at the edge.
 */
export interface UpdateRequest {
  body: Row;
  /** The fields the console may write (the update schema's keys). */
  writable: ReadonlySet<string>;
  parse(changes: Row): Row;
}

/** A create's body, parsed whole with the resource's create schema. */
export function parseCreate(schema: z.ZodType<Row>, body: unknown): Row {
  return schema.parse(body);
}

/** An update's body: a JSON object, with the resource's update schema to apply to what changes. */
export function updateRequest(schema: z.ZodType<Row>, body: unknown): UpdateRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('validation-failed', 'The body must be a JSON object.');
  const object = schema as z.ZodObject;
  return {
    body: body as Row,
    writable: new Set(Object.keys(object.shape ?? {})),
    parse: (changes) => object.parse(changes) as Row,
  };
}
