import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureText } from './failure-text.js';

describe('failureText', () => {
  it('keeps the SQLSTATE code and the first line of the message', () => {
    const err = Object.assign(new Error('deadlock detected\nDETAIL: Process 12 waits for ShareLock'), { code: '40P01' });
    assert.equal(failureText(err), '40P01: deadlock detected');
  });

  it('takes addresses, phone numbers and quoted input values out', () => {
    assert.equal(failureText(new Error('could not send to ann.lee+x@example.com')), 'could not send to [redacted]');
    assert.equal(failureText(new Error('no route for +33 6 12 34 56 78 today')), 'no route for [redacted] today');
    const err = Object.assign(new Error('invalid input syntax for type integer: "ann@example.com"'), { code: '22P02' });
    assert.equal(failureText(err), '22P02: invalid input syntax for type integer: "[redacted]"');
    assert.equal(failureText(new Error('value for "x": "Ann Lee"')), 'value for "x": "[redacted]"');
  });

  it('keeps constraint names and short numbers, and bounds the length', () => {
    const err = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), { code: '23505' });
    assert.equal(failureText(err), '23505: duplicate key value violates unique constraint "users_email_key"');
    assert.equal(failureText(new Error('request 42 failed')), 'request 42 failed');
    assert.equal(failureText(new Error('x'.repeat(1000))).length, 300);
    assert.equal(failureText('plain text'), 'plain text');
  });
});
