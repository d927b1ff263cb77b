import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrayOf, optional, shapeMismatches } from '../helpers/shape.js';

describe("the spec audit's answer shapes", () => {
  const account = { nonce: 'decimal', keys: arrayOf('hex'), note: optional('string') } as const;

  it('an answer with exactly the fields and types of the shape fits', () => {
    assert.deepEqual(shapeMismatches({ nonce: '12', keys: ['00ff'] }, account), []);
    assert.deepEqual(shapeMismatches({ nonce: '0', keys: [], note: 'x' }, account), []);
  });

  it('a missing field, an extra field and a wrong type are each named by their path', () => {
    assert.deepEqual(shapeMismatches({ keys: [] }, account), ['.nonce: missing']);
    assert.deepEqual(shapeMismatches({ nonce: '1', keys: [], extra: 1 }, account), ['.extra: not in the shape']);
    assert.deepEqual(shapeMismatches({ nonce: 1, keys: ['0F'] }, account), [
      '.nonce: 1 is not decimal',
      '.keys[0]: "0F" is not hex',
    ]);
  });

  it('the spec types: decimal strings, lowercase whole-byte hex, klayr32 addresses, integers', () => {
    assert.deepEqual(shapeMismatches('007', 'decimal'), ['.: "007" is not decimal']);
    assert.deepEqual(shapeMismatches('abc', 'hex'), ['.: "abc" is not hex']);
    assert.deepEqual(shapeMismatches('klyguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad', 'klayr32'), []);
    assert.deepEqual(shapeMismatches('lskguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad', 'klayr32').length, 1);
    assert.deepEqual(shapeMismatches(1.5, 'integer'), ['.: 1.5 is not integer']);
    assert.deepEqual(shapeMismatches([], 'object'), ['.: [] is not object']);
  });

  it('fields named like the shape helpers (items, shape) are ordinary fields', () => {
    assert.deepEqual(shapeMismatches({ items: 'x', shape: 1 }, { items: 'string', shape: 'integer' }), []);
  });
});
