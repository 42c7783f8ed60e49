import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDatabaseUnavailable } from './errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('is true for the SQLSTATEs of a database that cannot serve now', () => {
    for (const code of ['08006', '08001', '53300', '57014', '57P01', '57P03', '25P03']) {
      assert.equal(isDatabaseUnavailable(withCode(code)), true, code);
    }
  });

  it('is true for socket errors and for the driver messages that carry no code', () => {
    assert.equal(isDatabaseUnavailable(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')), true);
    assert.equal(isDatabaseUnavailable(withCode('ECONNRESET', 'read ECONNRESET')), true);
    for (const message of ['Connection terminated unexpectedly', 'Query read timeout', 'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable']) {
      assert.equal(isDatabaseUnavailable(new Error(message)), true, message);
    }
  });

  it('looks into causes and into the parts of an AggregateError (one per address tried)', () => {
    const timeout = new Error('Connection terminated due to connection timeout', { cause: new Error('something else') });
    assert.equal(isDatabaseUnavailable(timeout), true);
    assert.equal(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('57P01') })), true);
    assert.equal(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')), true);
  });

  it('is false for errors in the query or the data, and for text that only mentions a socket error', () => {
    for (const code of ['23505', '42P01', '22P02', '40001', '28P01', '3D000']) {
      assert.equal(isDatabaseUnavailable(withCode(code)), false, code);
    }
    assert.equal(isDatabaseUnavailable(new Error('connect ECONNREFUSED 10.0.0.7:5432')), false);
    assert.equal(isDatabaseUnavailable(undefined), false);
    assert.equal(isDatabaseUnavailable('Query read timeout'), false);
  });
});
