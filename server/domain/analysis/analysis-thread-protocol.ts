import type { ContainerAnalysis } from '../../media/analyse-container.ts';

/** The messages between the main thread and an analysis thread (analysis-threads.ts, analysis-thread.ts). */

export interface ThreadTask {
  filePath: string;
  /** Every library's root: the file must really lie inside its own (symlink containment). */
  libraryRoots: string[];
  withDimensions: boolean;
}

/** What the thread sends back: plain data (a reader object cannot cross threads, its media type can). */
export type ThreadAnalysis = Omit<ContainerAnalysis, 'reader'> & { mediaType: string };

/** A failure, described so that the main thread can rebuild the error analysis expects. */
export interface ThreadFailure {
  /** MediaError: the file is bad (its Komga code); errno: the system said no (transient or not). */
  kind: 'media' | 'errno' | 'other';
  code?: string;
  message: string;
  /** The errno under a MediaError (EMFILE behind ERR_1000 makes the failure transient). */
  causeCode?: string;
}

export type ThreadOutcome = { analysis: ThreadAnalysis } | { failure: ThreadFailure } | { notHere: true };
