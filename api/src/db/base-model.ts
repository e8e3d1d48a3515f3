import { Model, type RelationMapping } from 'objection';

/**
 * Columns are snake_case in PostgreSQL and camelCase here (the knex mappers convert).
 * JSON columns are listed per model, so arrays such as `roles text[]` are never mistaken for JSON.
 * Relations are declared only where a query fetches or joins them (withGraphFetched, joinRelated ...).
 */
export class BaseModel extends Model {
  static override jsonAttributes: string[] = [];
  static override useLimitInFirst = true;
}

/** `from` (a column of this table) holds the id of one `modelClass` row. */
export function belongsToOne(modelClass: typeof BaseModel, from: string): RelationMapping<BaseModel> {
  return { relation: Model.BelongsToOneRelation, modelClass, join: { from, to: `${modelClass.tableName}.id` } };
}

/** The `modelClass` rows whose column `to` holds this row's `from`. */
export function hasMany(modelClass: typeof BaseModel, from: string, to: string): RelationMapping<BaseModel> {
  return { relation: Model.HasManyRelation, modelClass, join: { from, to } };
}

/**
 * The base of one table's model, its table name, key and JSON columns in one line:
 * `class Comment extends table('comments', { jsonAttributes: ['context'] })`.
 */
export function table(tableName: string, keys: { idColumn?: string | string[]; jsonAttributes?: string[] } = {}) {
  return class extends BaseModel {
    static override tableName = tableName;
    static override idColumn = keys.idColumn ?? 'id';
    static override jsonAttributes = keys.jsonAttributes ?? [];
  };
}

/** A link between two rows, keyed by the pair of their ids; `id` is only the console's handle for one link. */
export function linkTable(tableName: string, idColumn: [string, string], jsonAttributes: string[] = []) {
  return class extends table(tableName, { idColumn, jsonAttributes }) {
    declare id: string;
    declare createdAt: Date;
  };
}
