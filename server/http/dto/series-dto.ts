import type { SeriesDto } from '../../../src/api/types.ts';
import type { FolioContext } from '../../domain/context.ts';
import type { User } from '../../db/user-repository.ts';
import { formatDateTime } from '../format.ts';

/** SeriesDto for one caller (read counts are per user, of the books they may see; `url` is "" for non-admins). */
export function toSeriesDto(ctx: FolioContext, seriesId: string, user: User, admin: boolean): SeriesDto | undefined {
  const series = ctx.repos.series.findById(seriesId);
  const metadata = ctx.repos.seriesMetadata.findBySeriesId(seriesId);
  if (!series || !metadata) return undefined;
  const aggregation = ctx.repos.seriesBooksMetadata.findBySeriesId(seriesId);
  const counts = ctx.repos.readProgress.seriesCounts(seriesId, user);
  const { seriesId: _id, created, lastModified, ...fields } = metadata;
  return {
    id: series.id,
    libraryId: series.libraryId,
    name: series.name,
    url: admin ? series.url : '',
    created: formatDateTime(series.created),
    lastModified: formatDateTime(series.lastModified),
    fileLastModified: formatDateTime(series.fileLastModified),
    booksCount: counts.total,
    booksReadCount: counts.read,
    booksUnreadCount: counts.total - counts.read - counts.inProgress,
    booksInProgressCount: counts.inProgress,
    metadata: { ...fields, created: formatDateTime(created), lastModified: formatDateTime(lastModified) },
    booksMetadata: {
      authors: aggregation?.authors ?? [],
      tags: aggregation?.tags ?? [],
      releaseDate: aggregation?.releaseDate ?? null,
      summary: aggregation?.summary ?? '',
      summaryNumber: aggregation?.summaryNumber ?? '',
      created: formatDateTime(aggregation?.created ?? series.created),
      lastModified: formatDateTime(aggregation?.lastModified ?? series.lastModified),
    },
    deleted: series.deletedDate !== null,
    oneshot: series.oneshot,
  };
}
