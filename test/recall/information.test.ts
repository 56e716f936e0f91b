// The gate's information per term: values and pasted program output the history lacks count nothing.
import { describe, expect, it } from 'vitest';
import { informationOf, isValueToken, machineOutputKeys } from '../../src/main/recall/information.js';
import { clauseKey, parseQuery } from '../../src/main/recall/terms.js';

const term = (word: string, df: number, weight = 5) => {
  const clause = parseQuery(word)[0]!;
  return { clause, key: clauseKey(clause), df, weight };
};

describe('information of a term', () => {
  it('tells values (hashes, addresses, long numbers, clock times) from names and versions', () => {
    for (const v of ['3f2a9c1e', '0x7ffd5e8c', '0a1b2c3d4e5f', '48213', '29t10', '123z']) expect(isValueToken(v), v).toBe(true);
    for (const n of ['v16', 'py312', '047', '2026', 'deadbeef', 'payout', 'node20', 'e2e']) expect(isValueToken(n), n).toBe(false);
  });

  it('finds the lines a program wrote: stack frames, log lines, file:line locations', () => {
    const text = [
      'the payout export crashes again, any idea?',
      '2026-11-29T10:22:01.123Z ERROR worker-7 reqId=3f2a9c1e pid=48213',
      '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '  File "/srv/jobs/export.py", line 88, in render_payouts',
      '[WARN] retry budget exhausted for payout',
      'goroutine 81 [running]:',
      'main.flushPayouts(0xc000012345)',
      '\t/home/ci/src/payout/flush.go:212 +0x1d',
    ].join('\n');
    const keys = machineOutputKeys(text);
    expect(keys.has('processticksandrejections')).toBe(true);
    expect(keys.has('render payouts')).toBe(true);
    expect(keys.has('budget')).toBe(true);
    expect(keys.has('home ci src payout flush go 212')).toBe(true);
    expect(keys.has('goroutine')).toBe(true);
    // A word the person wrote too is theirs, wherever else it appears.
    expect(keys.has('payout')).toBe(false);
    expect(keys.has('crashes')).toBe(false);
    expect(machineOutputKeys('add a retry to the payout client\nand log the attempt count')).toEqual(new Set());
  });

  it("finds an error pasted inside a sentence, from the program's name to the end of the line", () => {
    const keys = machineOutputKeys('db-backup workflow failed last night: pg_restore: error: could not execute query: ERROR: extension "pg_trgm" is not available');
    expect(keys.has('pg restore')).toBe(true);
    expect(keys.has('execute')).toBe(true);
    expect(keys.has('pg trgm')).toBe(true);
    expect(keys.has('workflow')).toBe(false);
    expect(keys.has('failed')).toBe(false);
    const node = machineOutputKeys('recon-cli broke again: Error [ERR_REQUIRE_ESM]: require() of ES Module not supported');
    expect(node.has('err require esm')).toBe(true);
    expect(node.has('recon cli')).toBe(false);
    // Go, C and Rust print "Error <doing what>: <cause>"; after a colon that is the program speaking.
    const go = machineOutputKeys('bumped the version and the ranker pod crashloops: Error loading ONNX shared library "libonnxruntime.so.1.19.2": cannot open shared object file');
    expect(go.has('onnx')).toBe(true);
    expect(go.has('object')).toBe(true);
    expect(go.has('ranker')).toBe(false);
    expect(go.has('crashloops')).toBe(false);
    // Talking about errors is not pasting one.
    expect(machineOutputKeys('the error handling in the importer swallows timeouts')).toEqual(new Set());
    expect(machineOutputKeys('add an error page for failed payouts\nwhat does the error mean?')).toEqual(new Set());
    expect(machineOutputKeys('Error handling: the importer swallows timeouts')).toEqual(new Set());
    expect(machineOutputKeys('two things: Error pages need a retry button, and the toast is too small')).toEqual(new Set());
  });

  it('an unknown value or machine-output term counts nothing; a known one, or an unknown name, counts its idf', () => {
    const none = new Set<string>();
    expect(informationOf(term('3f2a9c1e', 0), none)).toBe(0);
    expect(informationOf(term('2026-11-29T10:22:01Z', 0), none)).toBe(0);
    expect(informationOf(term('/srv/app/dist/main.js:1182:33', 0), none)).toBe(0);
    expect(informationOf(term('3f2a9c1e', 2, 4.2), none)).toBe(4.2);
    expect(informationOf(term('zorblaxFetcher', 0, 7), none)).toBe(7);
    expect(informationOf(term('INC-099', 0, 7), none)).toBe(7);
    expect(informationOf(term('zorblaxFetcher', 0, 7), new Set(['zorblaxfetcher']))).toBe(0);
  });
});
