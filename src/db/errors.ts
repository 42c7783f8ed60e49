/** True when a query failed on a unique constraint (SQLSTATE 23505), on PostgreSQL and PGlite alike. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown })?.code === '23505';
