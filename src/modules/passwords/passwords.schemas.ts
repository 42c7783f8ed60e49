import { Type, type Static } from 'typebox';
import { Body } from '../../http/schema.js';

export const Requirements = Type.Object({
  min_length: Type.Integer(),
  require_lowercase: Type.Boolean(),
  require_uppercase: Type.Boolean(),
  require_numbers: Type.Boolean(),
  require_special: Type.Boolean(),
});

export const RequirementsResponse = Type.Object({
  requirements: Requirements,
  min_length: Type.Integer(),
  max_length: Type.Integer(),
});

/** The body is bounded so that an anonymous caller cannot send megabytes to score; scoring is capped further. */
export const StrengthBody = Body({
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  email: Type.Optional(Type.String({ maxLength: 254 })),
});
export type StrengthInput = Static<typeof StrengthBody>;

export const StrengthResponse = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 4 }),
  strength: Type.Union(['very_weak', 'weak', 'fair', 'strong', 'very_strong'].map((s) => Type.Literal(s))),
  is_valid: Type.Boolean(),
  errors: Type.Array(Type.String()),
  requirements: Requirements,
});
