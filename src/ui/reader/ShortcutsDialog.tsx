import { t } from '../i18n.ts';
import { ReaderDialog } from './ReaderDialog.tsx';
import * as styles from './reader.css.ts';

/**
 * REFERENCE §5.7, grouped as the help overlay shows them. Letters, digits and arrows are shown as
 * typed; keys with a name are shown as the reader's keyboards label them (KEY_NAMES); labels are translated.
 */
/**
 * `chord`: a key chord the label names in its text, shown as keyCap shows it (its key names in the
 * reader's language, as the key caps beside it).
 */
const GROUPS: { title: string; rows: { keys: string[]; label: string; chord?: string }[] }[] = [
  {
    title: 'reader.shortcut_groups.navigation',
    rows: [
      { keys: ['←', '→'], label: 'reader.shortcut_help.turn' },
      { keys: ['↑', '↓'], label: 'reader.shortcut_help.turn_vertical' },
      { keys: ['Home', 'End'], label: 'reader.shortcut_help.first_last' },
      { keys: ['Space', 'PageDown', 'PageUp'], label: 'reader.shortcut_help.scroll' },
      { keys: ['+', '-'], label: 'reader.shortcut_help.zoom' },
      { keys: ['0'], label: 'reader.shortcut_help.zoom_reset' },
    ],
  },
  {
    title: 'reader.shortcut_groups.settings',
    rows: [
      { keys: ['l', 'r', 'v', 'w'], label: 'reader.shortcut_help.direction' },
      { keys: ['c'], label: 'reader.shortcut_help.scale' },
      { keys: ['d'], label: 'reader.shortcut_help.layout' },
      { keys: ['p'], label: 'reader.shortcut_help.padding' },
      { keys: ['n'], label: 'reader.shortcut_help.margin' },
      { keys: ['f'], label: 'reader.shortcut_help.fullscreen' },
    ],
  },
  {
    title: 'reader.shortcut_groups.menus',
    rows: [
      { keys: ['m'], label: 'reader.shortcut_help.toolbar' },
      { keys: ['s'], label: 'reader.shortcut_help.settings' },
      { keys: ['t'], label: 'reader.shortcut_help.thumbnails' },
      { keys: ['h'], label: 'reader.shortcut_help.help' },
      { keys: ['Esc'], label: 'reader.shortcut_help.escape' },
    ],
  },
];

/**
 * The text (EPUB) reader's keys: it turns and jumps, shows its contents where the page reader shows
 * thumbnails, and has no zoom, scale, page layout, reading direction or webtoon keys (its direction
 * is the book's), so the help lists none of them.
 */
const TEXT_GROUPS: typeof GROUPS = [
  {
    title: 'reader.shortcut_groups.navigation',
    rows: [
      { keys: ['←', '→'], label: 'reader.shortcut_help.turn' },
      { keys: ['Shift+←', 'Shift+→'], label: 'reader.shortcut_help.chapter' },
      { keys: ['Home', 'End'], label: 'reader.shortcut_help.first_last' },
      { keys: ['Space', 'PageDown', 'PageUp'], label: 'reader.shortcut_help.text_pages', chord: 'Shift+Space' },
    ],
  },
  {
    title: 'reader.shortcut_groups.menus',
    rows: [
      { keys: ['f'], label: 'reader.shortcut_help.fullscreen' },
      { keys: ['m'], label: 'reader.shortcut_help.toolbar' },
      { keys: ['s'], label: 'reader.shortcut_help.settings' },
      { keys: ['t'], label: 'reader.epub.contents' },
      { keys: ['h'], label: 'reader.shortcut_help.help' },
      { keys: ['Esc'], label: 'reader.shortcut_help.escape' },
    ],
  },
];

/** Keys whose cap carries a word, which keyboards of other languages print in their own ("Pos1", "Échap"). */
const KEY_NAMES = new Set(['Home', 'End', 'Space', 'PageDown', 'PageUp', 'Esc', 'Shift']);

/** A key as its keyboard shows it: named keys through reader.keys, a chord's parts one by one. */
function keyCap(key: string): string {
  return key
    .split('+')
    .map((part) => (KEY_NAMES.has(part) ? t(`reader.keys.${part}`) : part))
    .join('+');
}

/** `reader`: the keys of the page (comic) reader, or of the text (EPUB) reader. */
export function ShortcutsDialog({ onClose, reader = 'pages' }: { onClose: () => void; reader?: 'pages' | 'text' }) {
  return (
    <ReaderDialog title={t('reader.shortcuts')} onClose={onClose}>
      {(reader === 'text' ? TEXT_GROUPS : GROUPS).map((group) => (
        <section key={group.title}>
          <h3>{t(group.title)}</h3>
          <table className={styles.shortcutTable}>
            <tbody>
              {group.rows.map((row) => (
                <tr key={row.label}>
                  <td className={styles.shortcutKeys}>
                    {row.keys.map((key) => (
                      <kbd key={key} className={styles.kbd}>
                        {keyCap(key)}
                      </kbd>
                    ))}
                  </td>
                  <td>{t(row.label, row.chord ? { chord: keyCap(row.chord) } : undefined)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </ReaderDialog>
  );
}
