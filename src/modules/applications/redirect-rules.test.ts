import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listProblems, originProblem, redirectUriProblem } from './redirect-rules.js';

describe('redirectUriProblem', () => {
  for (const uri of ['https://app.example.com/callback', 'http://localhost:3000/cb', 'https://app.example.com:8443/a/b?x=1']) {
    it(`accepts ${uri}`, () => assert.equal(redirectUriProblem(uri), null));
  }
  const bad: Array<[string, RegExp]> = [
    ['/callback', /absolute http\(s\) URL/],
    ['app.example.com/callback', /absolute http\(s\) URL/],
    ['ftp://example.com/cb', /absolute http\(s\) URL/],
    ['javascript:alert(1)', /absolute http\(s\) URL/],
    ['myapp://callback', /absolute http\(s\) URL/],
    [' https://example.com/cb', /absolute http\(s\) URL/],
    ['https://example.com/cb#frag', /fragment/],
    ['https://user:pw@example.com/cb', /credentials/],
    [`https://example.com/${'a'.repeat(2048)}`, /absolute http\(s\) URL/],
  ];
  for (const [uri, why] of bad) {
    it(`refuses ${JSON.stringify(uri.slice(0, 40))}`, () => assert.match(redirectUriProblem(uri) ?? '', why));
  }
});

describe('originProblem', () => {
  for (const origin of ['https://app.example.com', 'http://localhost:3000', 'https://example.com:8443']) {
    it(`accepts ${origin}`, () => assert.equal(originProblem(origin), null));
  }
  for (const origin of ['https://app.example.com/', 'https://app.example.com/path', 'https://App.Example.com', 'https://example.com:443',
    'app.example.com', 'ftp://example.com', '*', 'null']) {
    it(`refuses ${origin}`, () => assert.match(originProblem(origin) ?? '', /bare origin/));
  }
});

describe('listProblems', () => {
  it('reports each bad entry and each duplicate', () => {
    assert.deepEqual(listProblems(['https://a.example', 'x', 'https://a.example'], originProblem), [
      'x is not a bare origin such as https://app.example.com (lower-case, no path or trailing slash).',
      'https://a.example is listed twice.',
    ]);
  });
});
