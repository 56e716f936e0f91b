// The list's previews: markdown said as plain text (the e2e corpus's long session replies like this).
import { describe, expect, it } from 'vitest';
import { stripMarkdown } from '../../src/renderer/src/lib/plain.js';

describe('stripMarkdown', () => {
  it('drops emphasis, bullets, inline code and fences, keeping the words and any HTML as text', () => {
    const reply =
      'Module 0 moves to **event sourcing**:\n\n- the writer appends an `AccountEvent`\n- the projection rebuilds balances\n\n```ts\n// replay in order\nconst x = 1;\n```\n\nSee [the plan](https://example.com) and <b>this</b>.';
    const plain = stripMarkdown(reply).trim();
    expect(plain).toBe('Module 0 moves to event sourcing: the writer appends an AccountEvent the projection rebuilds balances // replay in order const x = 1; See the plan and <b>this</b>.');
    expect(plain).not.toMatch(/\*\*|`/);
  });
});
