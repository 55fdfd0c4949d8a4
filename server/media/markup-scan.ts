/**
 * Scans of markup that comes from books (navigation documents, chapters, descriptions) in time
 * linear in its size. The obvious regular expressions are not: a lazy `[\s\S]*?` up to a closing
 * tag, or `[^>]*` up to a `>`, is retried at each of many openings that never close, so a few hundred
 * kilobytes of `<a` or `<` took seconds to minutes on the server's one JavaScript thread.
 */

/** The text up to its last `>`: there, every `[^>]*` that starts finds its `>` (nothing after can close). */
export const untilLastTag = (markup: string) => markup.slice(0, markup.lastIndexOf('>') + 1);

/** Markup without its tags (a `<` never closed keeps the rest as text). */
export function withoutTags(html: string): string {
  let text = '';
  let from = 0;
  for (;;) {
    const open = html.indexOf('<', from);
    const close = open < 0 ? -1 : html.indexOf('>', open);
    if (close < 0) return text + html.slice(from);
    text += html.slice(from, open);
    from = close + 1;
  }
}

/**
 * Each `<tag …>content</tag>` in document order, its content ending at the first closing tag (what
 * `/<tag\b([^>]*)>([\s\S]*?)<\/tag\s*>/gi` finds). Once no closing tag follows, no later element
 * can close either.
 */
export function* elements(markup: string, tag: string): Generator<{ attributes: string; content: string; start: number; end: number }> {
  const text = untilLastTag(markup);
  const open = new RegExp(`<${tag}\\b([^>]*)>`, 'gi');
  const close = new RegExp(`</${tag}\\s*>`, 'gi');
  for (;;) {
    const opened = open.exec(text);
    if (!opened) return;
    close.lastIndex = open.lastIndex;
    const closed = close.exec(text);
    if (!closed) return;
    yield { attributes: opened[1] ?? '', content: text.slice(open.lastIndex, closed.index), start: opened.index, end: close.lastIndex };
    open.lastIndex = close.lastIndex;
  }
}

/** Markup without the given elements, content included (an element never closed stays). */
export function withoutElements(markup: string, tags: readonly string[]): string {
  const found = tags.flatMap((tag) => [...elements(markup, tag)]).sort((a, b) => a.start - b.start);
  let text = '';
  let from = 0;
  for (const element of found) {
    if (element.start < from) continue; // inside one already removed
    text += markup.slice(from, element.start);
    from = element.end;
  }
  return text + markup.slice(from);
}
