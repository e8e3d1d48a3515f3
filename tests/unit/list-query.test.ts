import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE, parseListQuery, type ListableResource } from '../../api/src/list-query/schemas';
import { AppError } from '../../api/src/shared/errors';

const resource: ListableResource = {
  name: 'purchases',
  filterable: { id: 'id', productId: 'id', status: 'enum', totalAmount: 'number', createdAt: 'date' },
  sortable: ['createdAt', 'totalAmount'],
  searchable: ['country'],
  defaultSort: ['createdAt', 'DESC'],
};
const ID = '7b0c0e5e-2f7d-4c55-9f0e-4f51b8e8a111';

function rejection(query: Record<string, unknown>): AppError {
  try {
    parseListQuery(resource, query);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('accepted');
}

describe('parseListQuery', () => {
  it('uses the default sort and the first page when nothing is given', () => {
    expect(parseListQuery(resource, {})).toEqual({
      sort: { field: 'createdAt', order: 'desc' },
      offset: 0,
      limit: 25,
      conditions: [],
      search: undefined,
    });
  });

  it('reads sort, range and every filter form of ra-data-simple-rest', () => {
    const query = parseListQuery(resource, {
      sort: '["totalAmount","ASC"]',
      range: '[50,99]',
      filter: JSON.stringify({
        productId: ID,
        id: [ID],
        status: 'Valid',
        totalAmount_gte: 100,
        createdAt_lte: '2026-01-31T00:00:00Z',
        q: ' DE ',
      }),
    });
    expect(query.sort).toEqual({ field: 'totalAmount', order: 'asc' });
    expect(query.offset).toBe(50);
    expect(query.limit).toBe(50);
    expect(query.search).toBe('DE');
    expect(query.conditions).toEqual([
      { field: 'productId', op: 'eq', value: ID },
      { field: 'id', op: 'in', value: [ID] },
      { field: 'status', op: 'eq', value: 'Valid' },
      { field: 'totalAmount', op: 'gte', value: 100 },
      { field: 'createdAt', op: 'lt', value: new Date('2026-01-31T00:00:00.001Z') },
    ]);
  });

  it('makes an upper date bound include its whole day, or its whole millisecond', () => {
    const day = parseListQuery(resource, { filter: '{"createdAt_lte":"2026-01-31"}' });
    expect(day.conditions).toEqual([{ field: 'createdAt', op: 'lt', value: new Date('2026-02-01T00:00:00Z') }]);
    const instant = parseListQuery(resource, { filter: '{"createdAt_lte":"2026-01-31T10:00:00.250Z"}' });
    expect(instant.conditions).toEqual([{ field: 'createdAt', op: 'lt', value: new Date('2026-01-31T10:00:00.251Z') }]);
  });

  it.each([
    ['an unknown sort field', { sort: '["password","ASC"]' }, 'sort', /cannot sort purchases by "password"/],
    ['a bad sort order', { sort: '["createdAt","SIDEWAYS"]' }, 'sort', /sort/],
    ['sort that is not JSON', { sort: 'createdAt' }, 'sort', /not valid JSON/],
    ['an oversized range', { range: `[0,${MAX_PAGE_SIZE}]` }, 'range', /at most 500 rows/],
    ['a reversed range', { range: '[10,5]' }, 'range', /before its start/],
    ['an unknown filter', { filter: '{"email":"x"}' }, 'filter', /cannot filter purchases by "email"/],
    // Found by the fuzzer: a name of Object.prototype was taken for a filterable field (500).
    ['a name of Object.prototype', { filter: '{"valueOf":[0]}' }, 'filter', /cannot filter purchases by "valueOf"/],
    [
      'a prototype range',
      { filter: '{"constructor_gte":1}' },
      'filter',
      /cannot filter purchases by "constructor_gte"/,
    ],
    ['a malformed id', { filter: '{"productId":"1 OR 1=1"}' }, 'filter', /productId must be an id/],
    ['a range on an enum', { filter: '{"status_gte":"A"}' }, 'filter', /status has no range filter/],
    ['a bad date', { filter: '{"createdAt_gte":"yesterday"}' }, 'filter', /createdAt must be a date/],
    ['a repeated parameter', { sort: ['["createdAt","ASC"]', '["createdAt","DESC"]'] }, 'sort', /given once/],
  ])('refuses %s with a 400 naming the parameter', (_label, query, param, message) => {
    const error = rejection(query);
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation-failed');
    expect(error.message).toMatch(message);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([param]);
  });
});
