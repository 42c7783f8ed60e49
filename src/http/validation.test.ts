import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ErrorObject } from 'ajv';
import { Type } from 'typebox';
import { toFieldErrors, validatorCompiler } from './validation.js';

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Validates `data` against `schema` the way a POST body is validated and returns the real Ajv errors. */
function errorsFor(schema: object, data: unknown, httpPart = 'body'): ErrorObject[] {
  const validate = validatorCompiler({ schema, httpPart, method: 'POST', url: '/' }) as Validate;
  assert.equal(validate(data), false, 'the data is invalid');
  assert.ok(validate.errors && validate.errors.length > 0);
  return validate.errors;
}

describe('toFieldErrors', () => {
  it('maps a missing property to its name', () => {
    const schema = Type.Object({ email: Type.String(), password: Type.String() });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { email: 'a@b.co' })), { password: ['This field is required.'] });
  });

  it('maps an unknown property to its name', () => {
    const schema = Type.Object({ name: Type.String() }, { additionalProperties: false });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { name: 'x', is_staff: true })), { is_staff: ['Unknown field.'] });
  });

  it('reports every missing and unknown property, since all errors are collected', () => {
    const schema = Type.Object({ a: Type.String(), b: Type.String() }, { additionalProperties: false });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { x: 1 })), {
      a: ['This field is required.'], b: ['This field is required.'], x: ['Unknown field.'],
    });
  });

  it('joins a nested path with dots', () => {
    const schema = Type.Object({ profile: Type.Object({ age: Type.Integer() }) });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { profile: { age: 'old' } })), { 'profile.age': ['Must be of type integer.'] });
  });

  it('joins a nested missing or unknown property with dots', () => {
    const schema = Type.Object({ profile: Type.Object({ age: Type.Integer() }, { additionalProperties: false }) });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { profile: { bio: 'x' } })), {
      'profile.age': ['This field is required.'], 'profile.bio': ['Unknown field.'],
    });
  });

  it('names array items by index', () => {
    const schema = Type.Object({ tags: Type.Array(Type.String()) });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { tags: ['ok', 7] })), { 'tags.1': ['Must be of type string.'] });
  });

  it('unescapes JSON pointer segments', () => {
    const schema = Type.Object({ 'a/b': Type.Integer(), 'c~d': Type.Integer() });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { 'a/b': 'x', 'c~d': 'y' })), {
      'a/b': ['Must be of type integer.'], 'c~d': ['Must be of type integer.'],
    });
  });

  it('files errors about the whole body under non_field_errors', () => {
    const schema = Type.Object({ name: Type.String() });
    assert.deepEqual(toFieldErrors(errorsFor(schema, ['not', 'an', 'object'])), { non_field_errors: ['Must be of type object.'] });
  });

  it('keeps different messages for one field in order', () => {
    const schema = Type.Object({ username: Type.String({ minLength: 5, pattern: '^[a-z]+$' }) });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { username: 'A1' })), {
      username: ['Must be at least 5 characters.', 'Has an invalid format.'],
    });
  });

  it('collapses duplicate messages for one field', () => {
    const schema = {
      type: 'object',
      properties: { name: { allOf: [{ type: 'string', minLength: 3 }, { type: 'string', minLength: 3 }] } },
    };
    const errors = errorsFor(schema, { name: 'ab' });
    assert.equal(errors.filter((e) => e.keyword === 'minLength').length, 2, 'Ajv reports the rule twice');
    assert.deepEqual(toFieldErrors(errors), { name: ['Must be at least 3 characters.'] });
  });

  it('describes enum, format and range errors', () => {
    const schema = Type.Object({
      kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      email: Type.String({ format: 'email' }),
      count: Type.Integer({ minimum: 1, maximum: 10 }),
    });
    const fields = toFieldErrors(errorsFor(schema, { kind: 'c', email: 'nope', count: 11 }));
    assert.deepEqual(fields.email, ['Must be a valid email.']);
    assert.deepEqual(fields.count, ['Must be at most 10.']);
    assert.ok(fields.kind && fields.kind.length > 0);
  });

  it('does not coerce body types', () => {
    const schema = Type.Object({ count: Type.Integer() });
    assert.deepEqual(toFieldErrors(errorsFor(schema, { count: '5' })), { count: ['Must be of type integer.'] });
  });

  it('coerces query strings', () => {
    const schema = Type.Object({ page: Type.Integer() });
    const validate = validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/' }) as Validate;
    const query = { page: '5' };
    assert.equal(validate(query), true);
    assert.deepEqual(query, { page: 5 });
  });
});
