import { describe, expect, it } from 'vitest';
import { imagesByNamePrefix } from '../../../server/domain/library/library-walk.ts';
import { artworkOfBooks } from '../../../server/domain/posters/sidecars.ts';

/*
 * Local artwork beside books: each book takes `<book>.<ext>` and `<book>-<n>.<ext>`. A folder of
 * thousands of books, each with its cover beside it (as some tools leave them), was matched book by
 * book against every image: an unchanged rescan of 4,000 such books took 37 s (1,000: 2 s), every
 * scan, and 50,000 would take hours.
 */
describe('matching books with their images', () => {
  it('takes exactly the own images of each book', () => {
    const books = ['/s/b1.cbz', '/s/b10.cbz', '/s/Caf\u00e9.cbz', '/s/Lone.cbz'];
    const images = ['/s/b1.jpg', '/s/b1-2.png', '/s/b1-x.png', '/s/b10.png', '/s/B10-1.JPG', '/s/Cafe\u0301.png', '/s/cover.jpg', '/s/Lone-.png'];
    expect(Object.fromEntries(artworkOfBooks(books, images))).toEqual({
      '/s/b1.cbz': ['/s/b1.jpg', '/s/b1-2.png'],
      '/s/b10.cbz': ['/s/b10.png', '/s/B10-1.JPG'],
      '/s/Caf\u00e9.cbz': ['/s/Cafe\u0301.png'],
    });
  });

  it('matches a folder of 5,000 books and their 10,000 images at once, not each book against every image', () => {
    const books: string[] = [];
    const images: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      books.push(`/library/Big/Book ${i}.cbz`);
      images.push(`/library/Big/Book ${i}.jpg`, `/library/Big/Book ${i}-1.png`);
    }
    const started = performance.now();
    const artwork = artworkOfBooks(books, images);
    const elapsed = performance.now() - started;
    expect(artwork.size).toBe(5_000);
    expect(artwork.get('/library/Big/Book 123.cbz')).toEqual(['/library/Big/Book 123.jpg', '/library/Big/Book 123-1.png']);
    // Linear: a few milliseconds; every book against every image took about a minute here.
    expect(elapsed).toBeLessThan(2_000);
  });
});

describe('the artwork of one-shots', () => {
  it('is every image whose name starts with the book name, found without looking at every image for each book', () => {
    const images = ['/o/Lone Wolf.jpg', '/o/zeta.png', '/o/lone wolf-back.PNG', '/o/Lone.png', '/o/Cafe\u0301 Noir.png'];
    const imagesOf = imagesByNamePrefix(images);
    expect(imagesOf('Lone Wolf')).toEqual(['/o/Lone Wolf.jpg', '/o/lone wolf-back.PNG']);
    expect(imagesOf('Lone')).toEqual(['/o/Lone Wolf.jpg', '/o/lone wolf-back.PNG', '/o/Lone.png']);
    expect(imagesOf('Caf\u00e9 Noir')).toEqual(['/o/Cafe\u0301 Noir.png']);
    expect(imagesOf('Nobody')).toEqual([]);

    const many: string[] = [];
    for (let i = 0; i < 20_000; i++) many.push(`/o/Story ${i}.jpg`);
    const started = performance.now();
    const of = imagesByNamePrefix(many);
    for (let i = 0; i < 20_000; i++) expect(of(`Story ${i}.`)).toEqual([`/o/Story ${i}.jpg`]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
