/**
 * Rows answered as one JSON value (`row_to_json`) carry timestamps as ISO 8601 text: the hot queries use that form
 * because the driver then parses one field instead of describing and converting every column.
 */
export const dateOrNull = (v: string | null): Date | null => (v === null ? null : new Date(v));
