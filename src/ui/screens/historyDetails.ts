import type { HistoricalEventDto } from '../../api/history.ts';
import { formatBytes, formatNumber } from '../format.ts';
import { t } from '../i18n.ts';

/*
 * A history event's details arrive as Komga sends them: English property names ("former file",
 * "page number") with English sentences for a reason. The API keeps that shape (other Komga clients
 * read it); the screen translates what it knows and shows anything else (a newer server's property,
 * a reason worded otherwise) as sent.
 */

/** The property names Komga and Folio write, each with its label's locale key. */
const LABELS: Readonly<Record<string, string>> = {
  name: 'history.details.name',
  reason: 'history.details.reason',
  note: 'history.details.note',
  source: 'history.details.source',
  upgrade: 'history.details.upgrade',
  'former file': 'history.details.former_file',
  'page number': 'history.details.page_number',
  'page file name': 'history.details.page_file_name',
  'page file hash': 'history.details.page_file_hash',
  'page file size': 'history.details.page_file_size',
  'page media type': 'history.details.page_media_type',
};

/** The sentences written as a reason or a note, by Folio and by Komga, each with its locale key. */
const SENTENCES: Readonly<Record<string, string>> = {
  'File was deleted by user': 'history.values.file_deleted_by_user',
  'File was deleted by user request': 'history.values.file_deleted_by_user',
  'Folder was deleted by user': 'history.values.folder_deleted_by_user',
  'Folder was deleted by user request': 'history.values.folder_deleted_by_user',
  'Folder was deleted because it was empty': 'history.values.folder_deleted_empty',
  'Folder kept: it still holds other files': 'history.values.folder_kept',
};

const YES_NO: Readonly<Record<string, string>> = { Yes: 'history.values.yes', No: 'history.values.no' };

/** A value in the reader's language where its property says what it holds; file names stay as they are. */
function shownValue(property: string, value: string): string {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  switch (property) {
    case 'reason':
    case 'note':
      return SENTENCES[value] ? t(SENTENCES[value]) : value;
    case 'upgrade':
      return YES_NO[value] ? t(YES_NO[value]) : value;
    case 'page number':
      return Number.isNaN(number) ? value : formatNumber(number);
    case 'page file size':
      return Number.isNaN(number) ? value : formatBytes(number);
    default:
      return value;
  }
}

/** The event's details as label and value pairs, in the order the server sent them. */
export function historyDetails(event: Pick<HistoricalEventDto, 'properties'>): { label: string; value: string }[] {
  return Object.entries(event.properties).map(([property, value]) => ({
    label: LABELS[property] ? t(LABELS[property]) : property,
    value: shownValue(property, value),
  }));
}

/** The details as one line of text: "label: value" pairs in the language's own punctuation. */
export function historyDetailsText(event: Pick<HistoricalEventDto, 'properties'>): string {
  return historyDetails(event)
    .map((detail) => t('history.details.pair', detail))
    .join(t('history.details.separator'));
}
