/*
 * A book's CSS may pin an element to the window: a banner or running header with position: fixed,
 * a heading with position: sticky. In a paginated chapter the window is every page, so the element
 * was drawn over the text of each page of the chapter. Such elements are put back in the flow of
 * the text, where the book places them (position: static), by rewriting the rules and inline styles
 * that pin them once the frame has loaded its style sheets. Readium CSS pins nothing itself.
 */

const PINNED = new Set(['fixed', 'sticky']);

/** A style declaration that pins: made static, at the same priority (an !important one stays so). */
function unpin(style: CSSStyleDeclaration): void {
  if (PINNED.has(style.position)) style.setProperty('position', 'static', style.getPropertyPriority('position'));
}

/** Style rules, also inside @media, @supports, @layer and nested rules. Duck-typed: the frame's classes are not this window's. */
function unpinRules(rules: CSSRuleList): void {
  for (const rule of Array.from(rules)) {
    if ('style' in rule && typeof rule.style === 'object' && rule.style !== null) unpin(rule.style as CSSStyleDeclaration);
    if ('cssRules' in rule && rule.cssRules) unpinRules(rule.cssRules as CSSRuleList);
  }
}

/** Puts the chapter's pinned elements back in its text (see above). */
export function unpinElements(doc: Document): void {
  for (const sheet of Array.from(doc.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch (error) {
      // A sheet of another origin cannot be read (the frame's policy lets none load anyway). The
      // error is the frame's DOMException, not this window's: known by its name.
      if ((error as { name?: unknown }).name !== 'SecurityError') throw error;
      console.warn('A style sheet of the book could not be read to unpin its elements', sheet.href, error);
      continue;
    }
    unpinRules(rules);
  }
  for (const element of Array.from(doc.querySelectorAll('[style*="position"]'))) {
    const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined;
    if (style) unpin(style);
  }
}
