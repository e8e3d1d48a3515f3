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
