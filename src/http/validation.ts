import { Ajv, type ErrorObject } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrors } from '../core/errors.js';

// ajv-formats ships CommonJS with a default export property.
const addFormats = (addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv }).default;

const common = { allErrors: true, strict: false, useDefaults: true, allowUnionTypes: true } as const;
/** Bodies are JSON: types must match exactly, nothing is coerced and nothing unknown is silently dropped. */
const bodyAjv = new Ajv({ ...common, coerceTypes: false, removeAdditional: false });
/** Query strings and path parameters are text: numbers and booleans are coerced. */
const textAjv = new Ajv({ ...common, coerceTypes: 'array', removeAdditional: false });
for (const ajv of [bodyAjv, textAjv]) addFormats(ajv);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

const fieldPath = (pointer: string): string =>
  pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');

function messageFor(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return 'This field is required.';
    case 'additionalProperties': return 'Unknown field.';
    case 'type': return `Must be of type ${String(p.type)}.`;
    case 'minLength': return `Must be at least ${String(p.limit)} characters.`;
    case 'maxLength': return `Must be at most ${String(p.limit)} characters.`;
    case 'minimum': return `Must be at least ${String(p.limit)}.`;
    case 'maximum': return `Must be at most ${String(p.limit)}.`;
    case 'enum': return `Must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'const': return `Must be ${JSON.stringify(p.allowedValue)}.`;
    case 'format': return `Must be a valid ${String(p.format)}.`;
    case 'pattern': return 'Has an invalid format.';
    case 'maxItems': return `Must have at most ${String(p.limit)} items.`;
    case 'minItems': return `Must have at least ${String(p.limit)} items.`;
    case 'anyOf': case 'oneOf': return 'Does not match any accepted form.';
    default: return e.message ?? 'Invalid value.';
  }
}

/** Turns Ajv errors into the validation details of docs/api.md "Errors": `{field: [messages]}`, `non_field_errors` for the rest. */
export function toFieldErrors(errors: ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const p = e.params as Record<string, unknown>;
    let field = fieldPath(e.instancePath);
    if (e.keyword === 'required') field = [field, String(p.missingProperty)].filter(Boolean).join('.');
    if (e.keyword === 'additionalProperties') field = [field, String(p.additionalProperty)].filter(Boolean).join('.');
    const key = field || 'non_field_errors';
    const list = (out[key] ??= []);
    const msg = messageFor(e);
    if (!list.includes(msg)) list.push(msg);
  }
  return out;
}
