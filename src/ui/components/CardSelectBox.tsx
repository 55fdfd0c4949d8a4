import * as styles from './cards.css.ts';

/**
 * A card's multi-selection checkbox. The box is drawn at 20 px, but the label around it takes a
 * fingertip's 40 px, so a tap near the box on a phone still selects the card.
 */
export function CardSelectBox({ label, selected, onToggle }: { label: string; selected: boolean; onToggle: (selected: boolean) => void }) {
  return (
    <label className={styles.selectHit}>
      <input
        type="checkbox"
        className={styles.selectBox}
        aria-label={label}
        checked={selected}
        onChange={(e) => onToggle(e.target.checked)}
      />
    </label>
  );
}
