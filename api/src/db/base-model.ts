import { Model } from 'objection';

/**
 * Columns are snake_case in PostgreSQL and camelCase here (the knex mappers convert).
 * JSON columns are listed per model, so arrays such as `roles text[]` are never mistaken for JSON.
 */
export class BaseModel extends Model {
  static override jsonAttributes: string[] = [];
  static override useLimitInFirst = true;
}
