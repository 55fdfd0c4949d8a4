import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { newId } from '../../db/ids.ts';
import { type PosterImageHeader, readPosterImageHeader } from '../../media/poster-images.ts';
import type { OwnedThumbnailRepository } from '../../db/thumbnail-repository.ts';
import type { FolioContext } from '../context.ts';
import { comparableName } from '../library/library-walk.ts';

/** File names (without extension) that make an image in a series folder its poster. */
const SERIES_ARTWORK = new Set(['cover', 'default', 'folder', 'poster', 'series']);

interface FolderArtwork {
  folder: string;
  books: string[];
  images: string[];
}

// Compared as the scan compares names (comparableName): a book and its artwork may have been named
// by different tools, one writing accents composed and the other decomposed.
const stem = (path: string) => comparableName(basename(path, extname(path)));

/**
 * Local artwork (library option importLocalArtwork): `cover.jpg` & co. in a series folder become
 * the series' SIDECAR poster, `<book name>.jpg` / `<book name>-1.jpg` beside a book the book's.
 * A new sidecar is selected unless the user uploaded a selected poster; sidecars whose file
 * disappeared are dropped.
 */
export async function importLocalArtwork(ctx: FolioContext, libraryId: string, folders: FolderArtwork[]): Promise<void> {
  const seriesByPath = new Map(ctx.repos.series.findByLibrary(libraryId).map((s) => [s.url, s.id]));
  const booksByPath = new Map(ctx.repos.books.findByLibrary(libraryId).map((b) => [b.url, b.id]));
  // Most books have no artwork beside them and never had: nothing to add or drop, no rows to read.
  const booksWithSidecars = ctx.repos.thumbnails.ownersWithSidecars();
  for (const { folder, books, images } of folders) {
    const seriesId = seriesByPath.get(folder);
    if (seriesId) {
      await syncSidecars(ctx, ctx.repos.seriesThumbnails, seriesId, images.filter((i) => SERIES_ARTWORK.has(stem(i))));
    }
    const artwork = artworkOfBooks(books, images);
    for (const bookPath of books) {
      const bookId = booksByPath.get(bookPath);
      if (!bookId) continue;
      const own = artwork.get(bookPath) ?? [];
      if (own.length > 0 || booksWithSidecars.has(bookId)) await syncSidecars(ctx, ctx.repos.thumbnails, bookId, own);
    }
  }
}

/**
 * Each book's own images among those beside it: `<book name>.<ext>` and `<book name>-<n>.<ext>`.
 * The images are indexed by the book name they would belong to, once per folder: matching every
 * book against every image was quadratic (4,000 books with their covers: 37 s per scan).
 */
export function artworkOfBooks(books: string[], images: string[]): Map<string, string[]> {
  const byOwnerName = new Map<string, string[]>();
  const add = (name: string, image: string) => {
    const list = byOwnerName.get(name);
    if (list) list.push(image);
    else byOwnerName.set(name, [image]);
  };
  for (const image of images) {
    const s = stem(image);
    add(s, image);
    // `<name>-<digits>` also belongs to `<name>` (digits hold no '-': the last one splits it).
    const numbered = NUMBERED_STEM.exec(s);
    if (numbered) add(numbered[1]!, image);
  }
  const out = new Map<string, string[]>();
  for (const bookPath of books) {
    const own = byOwnerName.get(stem(bookPath));
    if (own) out.set(bookPath, own);
  }
  return out;
}

const NUMBERED_STEM = /^(.*)-\d+$/s;

async function syncSidecars(ctx: FolioContext, repository: OwnedThumbnailRepository, ownerId: string, paths: string[]): Promise<void> {
  const existing = repository.list(ownerId).filter((t) => t.type === 'SIDECAR');
  for (const row of existing) {
    if (!paths.includes(row.filePath)) repository.delete(ownerId, row.id);
  }
  for (const path of paths.sort()) {
    if (existing.some((row) => row.filePath === path)) continue;
    let image: PosterImageHeader | null;
    let fileSize: number;
    try {
      image = await readPosterImageHeader(path);
      fileSize = (await stat(path)).size;
    } catch (error) {
      // Not an image sharp can read (or gone): not artwork; the rest of the folder still counts.
      ctx.logger.warn({ err: error, file: path }, 'local artwork skipped: not a readable image');
      continue;
    }
    if (!image) continue; // an image, but not in a format posters are kept in
    const selected = repository.selected(ownerId);
    const now = Date.now();
    repository.insert(
      {
        id: newId(now),
        ownerId,
        type: 'SIDECAR',
        filePath: path,
        selected: false,
        mediaType: image.mediaType,
        width: image.width,
        height: image.height,
        fileSize,
        created: now,
        lastModified: now,
      },
      !selected || selected.type !== 'USER_UPLOADED',
    );
  }
}
