import type { GroupCountDto } from '../../api/browse.ts';
import { t, tPlural } from '../i18n.ts';
import * as styles from '../screens/library/library.css.ts';

const LETTERS = ['#', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')];

/** Sums the server's first-character groups into '#' and A–Z. */
export function countByLetter(groups: readonly GroupCountDto[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { group, count } of groups) {
    const upper = group.toUpperCase();
    const letter = /^[A-Z]$/.test(upper) ? upper : '#';
    counts.set(letter, (counts.get(letter) ?? 0) + count);
  }
  return counts;
}

/** Jump to series starting with a letter; letters without series are disabled. */
export function LetterBar(props: {
  groups: readonly GroupCountDto[];
  selected: string | undefined;
  onSelect: (letter: string | undefined) => void;
}) {
  const counts = countByLetter(props.groups);
  return (
    <nav aria-label={t('browse.letter_bar')}>
      <ul className={styles.letterBar}>
        <li>
          <button
            type="button"
            className={styles.letter}
            aria-pressed={!props.selected}
            onClick={() => props.onSelect(undefined)}
          >
            {t('browse.all_letters')}
          </button>
        </li>
        {LETTERS.map((letter) => {
          const count = counts.get(letter) ?? 0;
          return (
            <li key={letter}>
              <button
                type="button"
                className={styles.letter}
                aria-pressed={props.selected === letter}
                disabled={count === 0 && props.selected !== letter}
                title={tPlural('units.series', count)}
                onClick={() => props.onSelect(letter)}
              >
                {letter}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
