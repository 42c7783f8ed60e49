import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageRequest, toPage } from './pagination.js';

describe('pageRequest', () => {
  it('defaults to page 1 of 20', () => {
    assert.equal(DEFAULT_PAGE_SIZE, 20);
    assert.deepEqual(pageRequest({}), { page: 1, pageSize: 20, offset: 0 });
  });

  it('clamps a page_size above 100 to 100', () => {
    assert.equal(MAX_PAGE_SIZE, 100);
    assert.equal(pageRequest({ page_size: 101 }).pageSize, 100);
    assert.equal(pageRequest({ page_size: 5000 }).pageSize, 100);
    assert.equal(pageRequest({ page_size: 100 }).pageSize, 100);
  });

  it('floors fractional values', () => {
    assert.deepEqual(pageRequest({ page: 2.9, page_size: 10.7 }), { page: 2, pageSize: 10, offset: 10 });
  });

  it('raises page and page_size below 1 to 1', () => {
    assert.deepEqual(pageRequest({ page: 0, page_size: 0 }), { page: 1, pageSize: 1, offset: 0 });
    assert.deepEqual(pageRequest({ page: -3, page_size: -10 }), { page: 1, pageSize: 1, offset: 0 });
  });

  it('computes the offset from page and size', () => {
    assert.equal(pageRequest({ page: 3, page_size: 25 }).offset, 50);
  });
});

describe('toPage', () => {
  const url = '/api/v1/auth/users/?search=bob&page=2&page_size=10';
  const query = (link: string | null) => {
    assert.ok(link);
    return Object.fromEntries(new URL(link, 'http://x').searchParams);
  };

  it('gives count, page, page_size, total_pages and the results', () => {
    const page = toPage(['k', 'l'], 45, pageRequest({ page: 2, page_size: 10 }), url);
    assert.equal(page.count, 45);
    assert.equal(page.page, 2);
    assert.equal(page.page_size, 10);
    assert.equal(page.total_pages, 5);
    assert.deepEqual(page.results, ['k', 'l']);
  });

  it('links next and previous on the same path, preserving the other query parameters', () => {
    const page = toPage([], 45, pageRequest({ page: 2, page_size: 10 }), url);
    assert.ok(page.next?.startsWith('/api/v1/auth/users/?'));
    assert.ok(page.previous?.startsWith('/api/v1/auth/users/?'));
    assert.deepEqual(query(page.next), { search: 'bob', page: '3', page_size: '10' });
    assert.deepEqual(query(page.previous), { search: 'bob', page: '1', page_size: '10' });
  });

  it('adds page and page_size to a URL that had neither', () => {
    const page = toPage([], 30, pageRequest({}), '/api/v1/auth/roles/?q=a%20b');
    assert.deepEqual(query(page.next), { q: 'a b', page: '2', page_size: '20' });
  });

  it('has no previous link on the first page', () => {
    const page = toPage([], 45, pageRequest({ page: 1, page_size: 10 }), url);
    assert.equal(page.previous, null);
    assert.notEqual(page.next, null);
  });

  it('has no next link on the last page', () => {
    const page = toPage([], 45, pageRequest({ page: 5, page_size: 10 }), url);
    assert.equal(page.next, null);
    assert.deepEqual(query(page.previous), { search: 'bob', page: '4', page_size: '10' });
  });

  it('counts a partly filled last page and an exactly filled one', () => {
    assert.equal(toPage([], 41, pageRequest({ page_size: 10 }), url).total_pages, 5);
    assert.equal(toPage([], 40, pageRequest({ page_size: 10 }), url).total_pages, 4);
  });

  it('answers an empty list as one page without links', () => {
    const page = toPage([], 0, pageRequest({}), '/api/v1/auth/users/');
    assert.equal(page.total_pages, 1);
    assert.equal(page.next, null);
    assert.equal(page.previous, null);
    assert.deepEqual(page.results, []);
  });

  it('answers a page past the end with no results, no next link and previous pointing at the last page', () => {
    const page = toPage([], 45, pageRequest({ page: 9, page_size: 10 }), url);
    assert.equal(page.page, 9);
    assert.deepEqual(page.results, []);
    assert.equal(page.next, null);
    assert.deepEqual(query(page.previous), { search: 'bob', page: '5', page_size: '10' });
  });

  it('links with the clamped page size', () => {
    const page = toPage([], 450, pageRequest({ page_size: 1000 }), '/api/v1/auth/users/?page_size=1000');
    assert.equal(page.page_size, 100);
    assert.deepEqual(query(page.next), { page: '2', page_size: '100' });
  });
});
