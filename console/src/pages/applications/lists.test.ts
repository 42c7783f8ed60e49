import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, joinLines, parseLines } from './lists';

describe('parseLines', () => {
  it('keeps one trimmed entry a line, without blanks or repeats, in order', () => {
    expect(parseLines(' https://a.example/cb \n\n\r\nhttps://b.example/cb\r\nhttps://a.example/cb\n   ')).toEqual([
      'https://a.example/cb', 'https://b.example/cb']);
  });
  it('answers an empty list for an empty text', () => {
    expect(parseLines('')).toEqual([]);
    expect(parseLines('  \n \n')).toEqual([]);
  });
  it('round-trips with joinLines', () => {
    const entries = ['https://a.example', 'http://127.0.0.1:8000'];
    expect(parseLines(joinLines(entries))).toEqual(entries);
  });
});

describe('fieldErrorsOf', () => {
  it('reads the details of a VALIDATION_ERROR', () => {
    expect(fieldErrorsOf({ code: 'VALIDATION_ERROR', error: 'Invalid input', details: { redirect_uris: ['x is not an absolute http(s) URL.'] } }))
      .toEqual({ redirect_uris: ['x is not an absolute http(s) URL.'] });
  });
  it('reads a bare field map, and folds indexed fields onto their list', () => {
    expect(fieldErrorsOf({ slug: ['taken'], 'events.0': 'unknown', 'events.1': ['unknown too'] }))
      .toEqual({ slug: ['taken'], events: ['unknown', 'unknown too'] });
  });
  it('finds none in other refusals or in nothing', () => {
    expect(fieldErrorsOf({ code: 'NOT_FOUND', error: 'Not found' })).toEqual({});
    expect(fieldErrorsOf(null)).toEqual({});
    expect(fieldErrorsOf('text')).toEqual({});
  });
});
