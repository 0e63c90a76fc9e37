import { sql, type SQL } from "drizzle-orm";

/**
 * Values as one text[] parameter, joined with commas and split by PostgreSQL:
 * `array[$1, $2, …]` would bind a parameter per value, and an import chunk
 * passes thousands. Only for values that hold no comma (ids, numbers); cast
 * the result for numbers (`${idArray(n)}::int[]`). An empty list is an empty array.
 */
export function idArray(values: readonly (string | number)[]): SQL {
  return sql`string_to_array(${values.join(",")}, ',')`;
}
