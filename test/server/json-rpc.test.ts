// The line protocol's pieces without a socket: the splitter's bound and the request checks.
import { describe, expect, it } from 'vitest';
import { checkRequest, LineSplitter, parseLine } from '../../src/main/server/json-rpc.js';

describe('LineSplitter', () => {
  it('never holds more than the limit of one line, reports it once, and recovers at the next newline', () => {
    const lines: string[] = [];
    let oversize = 0;
    const s = new LineSplitter(1024, (l) => lines.push(l.toString()), () => oversize++);
    const chunk = Buffer.alloc(300, 'x');
    let peak = 0;
    for (let i = 0; i < 100; i++) {
      s.push(chunk);
      peak = Math.max(peak, s.buffered);
    }
    expect(peak).toBeLessThanOrEqual(1024);
    expect(oversize).toBe(1);
    s.push(Buffer.from('tail of the long line\n{"ok":1}\n{"split"'));
    s.push(Buffer.from(':2}\n'));
    expect(lines).toEqual(['{"ok":1}', '{"split":2}']);
  });

  it('reassembles a UTF-8 character cut between chunks', () => {
    const lines: string[] = [];
    const s = new LineSplitter(1024, (l) => lines.push(l.toString('utf8')), () => {});
    const bytes = Buffer.from('"日本"\n');
    for (const b of bytes) s.push(Buffer.from([b]));
    expect(lines).toEqual(['"日本"']);
  });
});

describe('request checks', () => {
  it('tells notifications from calls and keeps ids', () => {
    expect(checkRequest({ jsonrpc: '2.0', method: 'status' })).toMatchObject({ ok: true, request: { notification: true, id: null } });
    expect(checkRequest({ jsonrpc: '2.0', id: 'x', method: 'status' })).toMatchObject({ ok: true, request: { notification: false, id: 'x' } });
    expect(checkRequest({ jsonrpc: '2.0', id: null, method: 'status' })).toMatchObject({ ok: true, request: { notification: false } });
  });

  it('refuses batches that are empty or too long', () => {
    expect(parseLine('[]')).toMatchObject({ kind: 'invalid', response: { error: { code: -32600 } } });
    expect(parseLine(JSON.stringify(Array(101).fill({ jsonrpc: '2.0', id: 1, method: 'status' })))).toMatchObject({ kind: 'invalid' });
  });
});
