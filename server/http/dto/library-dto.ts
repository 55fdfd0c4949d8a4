import type { LibraryDto } from '../../../src/api/types.ts';
import type { Library } from '../../db/library-repository.ts';

/**
 * LibraryDto; `root` is hidden ("") from non-admins. Field by field on purpose: a column added to
 * the library table reaches the wire only when it is written here.
 */
export function toLibraryDto(library: Library, admin: boolean): LibraryDto {
  return {
    id: library.id,
    name: library.name,
    root: admin ? library.root : '',
    importComicInfoBook: library.importComicInfoBook,
    importComicInfoSeries: library.importComicInfoSeries,
    importComicInfoCollection: library.importComicInfoCollection,
    importComicInfoReadList: library.importComicInfoReadList,
    importComicInfoSeriesAppendVolume: library.importComicInfoSeriesAppendVolume,
    importEpubBook: library.importEpubBook,
    importEpubSeries: library.importEpubSeries,
    importMylarSeries: library.importMylarSeries,
    importLocalArtwork: library.importLocalArtwork,
    importBarcodeIsbn: library.importBarcodeIsbn,
    scanForceModifiedTime: library.scanForceModifiedTime,
    scanInterval: library.scanInterval,
    scanOnStartup: library.scanOnStartup,
    scanCbx: library.scanCbx,
    scanPdf: library.scanPdf,
    scanEpub: library.scanEpub,
    scanDirectoryExclusions: library.scanDirectoryExclusions,
    repairExtensions: library.repairExtensions,
    convertToCbz: library.convertToCbz,
    emptyTrashAfterScan: library.emptyTrashAfterScan,
    seriesCover: library.seriesCover,
    hashFiles: library.hashFiles,
    hashPages: library.hashPages,
    hashKoreader: library.hashKoreader,
    analyzeDimensions: library.analyzeDimensions,
    oneshotsDirectory: library.oneshotsDirectory,
    unavailable: library.unavailableDate !== null,
  };
}
