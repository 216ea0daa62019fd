import { sql, type SQL } from 'drizzle-orm';

/** A named integer constant written into SQL as a literal (a bound parameter inside CASE would have no type). */
export function sqlLiteral(value: number): SQL {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer constant: ${value}`);
  return sql.raw(String(value));
}
