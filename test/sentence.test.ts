/** Profile warnings shown among the findings read as sentences; `--json` keeps them as written. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listed, warningSentence } from '../src/util/sentence.js';

void test('a warning shown among findings starts with a capital; one that starts with a figure is unchanged', () => {
  assert.equal(warningSentence('dates stored as text in: date'), 'Dates stored as text in: date');
  assert.equal(
    warningSentence('4 columns more than 50% missing: felt'),
    '4 columns more than 50% missing: felt',
  );
  assert.equal(warningSentence(''), '');
});

void test('names are listed as a reader says them', () => {
  assert.equal(listed([]), '');
  assert.equal(listed(['wounds']), 'wounds');
  assert.equal(listed(['wounds', 'disease']), 'wounds and disease');
  assert.equal(listed(['wounds', 'other', 'disease']), 'wounds, other and disease');
});
