import { exactLength } from './exact-length.ts';
import type { FastifyReply } from 'fastify';
import { type FileHandle, open as openPath } from 'node:fs/promises';
import { OutsideLibraryError } from '../domain/library/library-paths.ts';
import { type CachedFile, SmallFileCache, smallFiles } from '../domain/small-file-cache.ts';
import { notFound } from './errors.ts';
import { fileSlots } from '../media/file-slots.ts';
import type { ThumbnailFile } from '../domain/posters/thumbnail-files.ts';

/**
 * Sends a poster file with its length and type. Posters are re-validated on every view
 * (Cache-Control max-age=0), so they carry an ETag derived from the file's identity and a
 * matching If-None-Match gets a bodiless 304 instead of the image again. Small files come from
 * memory (see SmallFileCache), so a poster costs about what a static file server spends on it.
 */
export async function sendFileBody(
  reply: FastifyReply,
  absolutePath: string,
  mediaType: string,
  version?: string,
  open: () => Promise<FileHandle> = () => openPath(absolutePath, 'r'),
) {
  try {
    return await sendOpenedBody(reply, absolutePath, mediaType, version, open);
  } catch (error) {
    // A sidecar poster swapped for a link out of its library since it was chosen: not found.
    if (error instanceof OutsideLibraryError) throw notFound();
    throw error;
  }
}

/**
 * Sends a poster: its file (sendFileBody), or the bytes of one drawn just now that the data folder
 * could not take (ThumbnailFile.bytes), which have no stored identity to tag: sent as they are.
 */
export function sendPoster(reply: FastifyReply, poster: ThumbnailFile) {
  if (poster.bytes) return reply.type(poster.mediaType).header('Content-Length', poster.bytes.length).send(poster.bytes);
  return sendFileBody(reply, poster.absolutePath, poster.mediaType, poster.version, poster.open);
}

async function sendOpenedBody(reply: FastifyReply, absolutePath: string, mediaType: string, version: string | undefined, open: () => Promise<FileHandle>) {
  const file = await smallFiles.read(absolutePath, Date.now(), version, open);
  if (!file) throw notFound();
  if (SmallFileCache.holdsBytes(file)) return sendKeptFile(reply, file, mediaType);
  reply.header('ETag', file.etag).header('Last-Modified', file.httpDate);
  if (matchesEtag(reply.request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  reply.type(mediaType).header('Content-Length', file.size);
  // The file may be replaced after it was looked at: the length announced is held (see exactLength).
  if (file.size === 0) return reply.send(Buffer.alloc(0));
  const opened = await fileSlots.openHandle(open);
  return reply.send(exactLength(opened.createReadStream({ start: 0, end: file.size - 1 }), file.size, absolutePath));
}

/** Sends a file whose bytes are in memory (SmallFileCache.holdsBytes), or a 304 when the client has it. */
export function sendKeptFile(reply: FastifyReply, file: CachedFile, mediaType: string) {
  reply.header('ETag', file.etag).header('Last-Modified', file.httpDate);
  if (matchesEtag(reply.request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply.type(mediaType).header('Content-Length', file.size).send(file.bytes);
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
