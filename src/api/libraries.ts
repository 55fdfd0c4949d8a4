import { getJson, sendJson } from './http.ts';
import type { LibraryCreationDto, LibraryDto } from './types.ts';

export function getLibraries(): Promise<LibraryDto[]> {
  return getJson('/api/v1/libraries', 'retrieve_libraries');
}

export function getLibrary(libraryId: string): Promise<LibraryDto> {
  return getJson(`/api/v1/libraries/${encodeURIComponent(libraryId)}`, 'retrieve_library');
}

export function createLibrary(library: LibraryCreationDto): Promise<LibraryDto> {
  return sendJson('POST', '/api/v1/libraries', 'add_library', { json: library });
}

export async function scanLibrary(libraryId: string, deep = false, action = 'scan_library'): Promise<void> {
  await sendJson('POST', `/api/v1/libraries/${encodeURIComponent(libraryId)}/scan`, action, {
    query: { deep: deep || undefined },
  });
}

/** Asks for a scan of each library in turn; a failure is named as the whole action the user asked for. */
export async function scanAllLibraries(libraryIds: readonly string[]): Promise<void> {
  for (const libraryId of libraryIds) await scanLibrary(libraryId, false, 'scan_all_libraries');
}
