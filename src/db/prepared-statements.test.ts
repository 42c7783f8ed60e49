import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createStatementNamer } from './prepared-statements.js';

it('names a text from its third use on, always with the same name, and distinct texts with distinct names', () => {
  const nameFor = createStatementNamer();
  assert.equal(nameFor('select 1'), undefined);
  assert.equal(nameFor('select 1'), undefined);
  const name = nameFor('select 1');
  assert.match(name ?? '', /^gatehouse_\d+$/);
  assert.equal(nameFor('select 1'), name);
  for (let i = 0; i < 3; i++) nameFor('select 2');
  assert.notEqual(nameFor('select 2'), name);
});

it('names at most 500 texts per process; the others keep going unnamed', () => {
  const nameFor = createStatementNamer();
  for (let n = 0; n < 500; n++) for (let i = 0; i < 3; i++) nameFor(`select ${n}`);
  for (let i = 0; i < 5; i++) assert.equal(nameFor('select -1'), undefined);
  assert.equal(nameFor('select 0'), 'gatehouse_1');
});
