import { Type, type Static, type TNull, type TProperties, type TSchema, type TUnion } from 'typebox';

/** A request body object that refuses unknown fields (400 validation naming the field). */
export const Body = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

/**
 * The schema or null. A schema of one primitive type becomes that type or `null` (`type: [t, 'null']`); others
 * become a union. Both validate alike, but the response serializer picks a union's branch by validating the value
 * against each branch (a date-time pattern match per field and response), while a type list is a type check.
 */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  const s = schema as { type?: unknown; const?: unknown; enum?: unknown };
  if (typeof s.type === 'string' && s.type !== 'null' && s.const === undefined && s.enum === undefined) {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [s.type, 'null'] }) as unknown as TUnion<[T, TNull]>;
  }
  return Type.Union([schema, Type.Null()]);
}

export const MessageResponse = Type.Object({ message: Type.String() });

/** The standard error body of docs/api.md "Errors" (documentation only; the error handler builds it). */
export const ErrorResponse = Type.Object({
  error: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Unknown()),
}, { additionalProperties: true });
