import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Room kept beyond the measured text: the field's text box keeps a pixel for the caret, and
 * sub-pixel widths round apart; a text that fits only to the pixel is shown cut.
 */
const SLACK_PX = 4;

/**
 * The widths `texts` take in `input`'s font, in CSS pixels, as the page lays them out (a canvas
 * resolves system-ui and the fallback fonts apart from the page and measured French 10 px short).
 */
function textWidths(input: HTMLInputElement, texts: readonly string[]): number[] {
  const style = getComputedStyle(input);
  const probe = document.createElement('span');
  probe.setAttribute('aria-hidden', 'true');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;inset-inline-start:0;inset-block-start:0';
  probe.style.font = style.font;
  probe.style.letterSpacing = style.letterSpacing;
  probe.style.fontKerning = style.fontKerning;
  input.parentElement!.append(probe);
  try {
    return texts.map((text) => {
      probe.textContent = text;
      return probe.getBoundingClientRect().width;
    });
  } finally {
    probe.remove();
  }
}

/** The width an input gives its text: its inner width less its paddings. */
function room(input: HTMLInputElement): number {
  const style = getComputedStyle(input);
  return input.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
}

/**
 * The first of `candidates` (longest first) that fits whole in `inputRef`'s field, or '' when none
 * does: a placeholder cut by the field's edge ("Искать сери…" on a phone) reads as a wrong word,
 * and translations differ too much in length for one CSS width to suit them all. Measured again as
 * the field is resized and once the page's fonts have loaded. The field keeps its accessible name
 * (aria-label) whatever is shown.
 */
export function useFittingPlaceholder(inputRef: RefObject<HTMLInputElement | null>, candidates: readonly string[]): string {
  const [fitting, setFitting] = useState(candidates[0] ?? '');
  const key = candidates.join('\u0000');
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    let live = true;
    const measure = () => {
      if (!live) return;
      const space = room(input);
      // A field not laid out yet (hidden, no width) is measured again when it gets one.
      if (space <= 0) return;
      const widths = textWidths(input, candidates);
      setFitting(candidates.find((_, i) => widths[i]! + SLACK_PX <= space) ?? '');
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(input);
    void document.fonts.ready.then(measure);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [inputRef, key]);
  return fitting;
}
