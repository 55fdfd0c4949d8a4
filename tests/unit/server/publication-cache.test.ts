import { describe, expect, it } from 'vitest';
import { PublicationCache } from '../../../server/domain/reading/publication-cache.ts';

interface Value {
  items: number;
  loadedAs: string;
}

/** A loader that counts its calls and resolves when told. */
function loader(items = 10) {
  const calls: string[] = [];
  const load = (name: string) => () => {
    calls.push(name);
    return Promise.resolve<Value>({ items, loadedAs: name });
  };
  return { calls, load };
}

describe('PublicationCache', () => {
  it('reads a book once per version, concurrent callers included, and again when the version changes', async () => {
    const cache = new PublicationCache<Value>((v) => v.items);
    const { calls, load } = loader();
    const [a, b] = await Promise.all([cache.get('book', 'v1', load('first')), cache.get('book', 'v1', load('second'))]);
    expect(a).toBe(b);
    expect(await cache.get('book', 'v1', load('third'))).toBe(a);
    expect(calls).toEqual(['first']);
    // The file was replaced or analysed again: read again, the old one is gone.
    expect((await cache.get('book', 'v2', load('changed'))).loadedAs).toBe('changed');
    expect(calls).toEqual(['first', 'changed']);
    expect(cache.size).toBe(1);
  });

  it('keeps at most so many books, the least recently used leaving first', async () => {
    const cache = new PublicationCache<Value>((v) => v.items, 2);
    const { calls, load } = loader();
    await cache.get('a', 'v', load('a'));
    await cache.get('b', 'v', load('b'));
    await cache.get('a', 'v', load('a again')); // a is now the most recent
    await cache.get('c', 'v', load('c'));
    expect(cache.size).toBe(2);
    await cache.get('a', 'v', load('a third time'));
    await cache.get('b', 'v', load('b again'));
    expect(calls).toEqual(['a', 'b', 'c', 'b again']);
  });

  it('keeps at most so many items in all; a book larger than that alone is not kept', async () => {
    const cache = new PublicationCache<Value>((v) => v.items, 16, 100);
    await cache.get('small', 'v', loader(40).load('small'));
    await cache.get('medium', 'v', loader(50).load('medium'));
    expect(cache.size).toBe(2);
    await cache.get('another', 'v', loader(30).load('another'));
    expect(cache.size).toBe(2); // 'small' left: 50 + 30 fit
    const huge = loader(500);
    await cache.get('huge', 'v', huge.load('huge'));
    await cache.get('huge', 'v', huge.load('huge again'));
    expect(huge.calls).toEqual(['huge', 'huge again']);
  });

  it('does not keep a failed read', async () => {
    const cache = new PublicationCache<Value>((v) => v.items);
    let attempts = 0;
    const failing = () => {
      attempts++;
      return Promise.reject(new Error('archive gone'));
    };
    await expect(cache.get('book', 'v', failing)).rejects.toThrow('archive gone');
    await expect(cache.get('book', 'v', failing)).rejects.toThrow('archive gone');
    expect(attempts).toBe(2);
    expect(cache.size).toBe(0);
  });
});
