// Values keyed by a text, least recently used out first, bounded by the characters of the keys it
// holds rather than by a count: the markdown cache (markdown.ts) keeps a long conversation whole
// however many short entries it has, and a few huge ones cannot push everything else out unseen.

export class TextCache<V> {
  private readonly map = new Map<string, V>();
  private chars = 0;

  constructor(private readonly budget: number) {}

  get size(): number {
    return this.map.size;
  }

  has(text: string): boolean {
    return this.map.has(text);
  }

  /** The value, now the most recently used. */
  get(text: string): V | undefined {
    const value = this.map.get(text);
    if (value !== undefined) {
      this.map.delete(text);
      this.map.set(text, value);
    }
    return value;
  }

  /** Keeps it, dropping the least recently used until the budget holds (the newest always stays). */
  set(text: string, value: V): void {
    if (this.map.has(text)) this.map.delete(text);
    else this.chars += text.length;
    this.map.set(text, value);
    for (const oldest of this.map.keys()) {
      if (this.chars <= this.budget || this.map.size === 1) break;
      this.map.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}
