import { Type, type TProperties, type TSchema } from 'typebox';

/** A request body object that refuses unknown fields (400 validation naming the field). */
export const Body = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const MessageResponse = Type.Object({ message: Type.String() });

/** The standard error body of SPEC.md "Errors" (documentation only; the error handler builds it). */
export const ErrorResponse = Type.Object({
  error: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Unknown()),
}, { additionalProperties: true });
