import { SearchConditionError } from './conditions.ts';

/**
 * The query language of Komga's search box (its Lucene query parser, komga.org "Full Text Search"):
 * words all required, `"a phrase"`, `AND` / `OR` / `NOT` (upper case) with parentheses, `-word`,
 * `field:value`, `field:"a phrase"` and `field:[a TO b]` (lexicographic, `*` open). It is parsed
 * here into a tree; full-text.ts turns the tree into SQL. Where Lucene would refuse the text
 * (unbalanced quotes or parentheses) this reads it as far as it makes sense instead: a search box
 * should find what it can.
 */
export type SearchNode =
  | { kind: 'text'; field?: string; text: string }
  | { kind: 'range'; field: string; from?: string; to?: string }
  | { kind: 'not'; node: SearchNode }
  | { kind: 'and' | 'or'; nodes: SearchNode[] };

/** Nesting of parentheses and NOTs past which a search is refused (each level is SQL nesting). */
export const MAX_QUERY_DEPTH = 16;

type Token = { type: 'open' | 'close' | 'and' | 'or' | 'not' } | { type: 'term'; node: SearchNode };

const FIELD = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s;

/** The tree of a search text, or undefined when it holds nothing to match (blank, `*:*`, operators only). */
export function parseSearchQuery(text: string): SearchNode | undefined {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];

  const parseOr = (depth: number): SearchNode | undefined => {
    const nodes = [parseAnd(depth)];
    while (peek()?.type === 'or') {
      at++;
      nodes.push(parseAnd(depth));
    }
    return group('or', nodes);
  };
  const parseAnd = (depth: number): SearchNode | undefined => {
    const nodes: (SearchNode | undefined)[] = [];
    for (let token = peek(); token && token.type !== 'or' && token.type !== 'close'; token = peek()) {
      if (token.type === 'and') at++;
      else nodes.push(parseUnary(depth));
    }
    return group('and', nodes);
  };
  const parseUnary = (depth: number): SearchNode | undefined => {
    if (depth > MAX_QUERY_DEPTH) throw new SearchConditionError(`A search may nest at most ${MAX_QUERY_DEPTH} levels`);
    const token = tokens[at++]!;
    if (token.type === 'not') {
      const node = peek() ? parseUnary(depth + 1) : undefined;
      return node && { kind: 'not', node };
    }
    if (token.type === 'open') {
      const node = parseOr(depth + 1);
      if (peek()?.type === 'close') at++;
      return node;
    }
    return token.type === 'term' ? token.node : undefined;
  };

  const nodes: (SearchNode | undefined)[] = [];
  while (at < tokens.length) {
    nodes.push(parseOr(0));
    // A stray closing parenthesis ends nothing: skip it and read on.
    if (peek()?.type === 'close') at++;
  }
  return group('and', nodes);
}

function group(kind: 'and' | 'or', nodes: (SearchNode | undefined)[]): SearchNode | undefined {
  const kept = nodes.filter((n): n is SearchNode => n !== undefined);
  if (kept.length <= 1) return kept[0];
  return { kind, nodes: kept };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const readUntil = (end: string) => {
    const close = text.indexOf(end, i);
    const value = text.slice(i, close < 0 ? text.length : close);
    i = close < 0 ? text.length : close + 1;
    return value;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'open' : 'close' });
      i++;
    } else if (c === '"') {
      i++;
      pushTerm(tokens, undefined, readUntil('"'));
    } else {
      const start = i;
      while (i < text.length && !/[\s()"]/.test(text[i]!)) i++;
      let word = text.slice(start, i);
      if (word === 'AND' || word === '&&') tokens.push({ type: 'and' });
      else if (word === 'OR' || word === '||') tokens.push({ type: 'or' });
      else if (word === 'NOT' || word === '!') tokens.push({ type: 'not' });
      else {
        let negated = false;
        let signed = false;
        if (word.length > 1 && (word[0] === '-' || word[0] === '+')) {
          negated = word[0] === '-';
          signed = true;
          word = word.slice(1);
        }
        if (negated) tokens.push({ type: 'not' });
        const field = FIELD.exec(word);
        if (field && field[2] === '' && text[i] === '"') {
          // field:"a phrase"
          i++;
          pushTerm(tokens, field[1], readUntil('"'));
        } else if (field && field[2]!.startsWith('[')) {
          // field:[a TO b]: read to the closing bracket, spaces included.
          i = start + (signed ? 1 : 0) + field[1]!.length + 2;
          const range = readUntil(']').split(/\s+TO\s+/);
          const bound = (value: string | undefined) => (value === undefined || value.trim() === '*' || value.trim() === '' ? undefined : value.trim());
          tokens.push({ type: 'term', node: { kind: 'range', field: field[1]!.toLowerCase(), from: bound(range[0]), to: bound(range[1]) } });
        } else if (field && field[2] !== '') {
          pushTerm(tokens, field[1], field[2]!);
        } else {
          pushTerm(tokens, undefined, word);
        }
      }
    }
  }
  return tokens;
}

/** A word or phrase, without Lucene's wildcards and escapes (matching is by substring anyway). */
function pushTerm(tokens: Token[], field: string | undefined, raw: string) {
  const text = raw.replace(/\\(.)/g, '$1').replace(/[*?]/g, ' ').trim();
  // `*:*` (everything) and lone wildcards narrow nothing.
  if (!/[\p{L}\p{N}]/u.test(text)) return;
  tokens.push({ type: 'term', node: field === undefined ? { kind: 'text', text } : { kind: 'text', field: field.toLowerCase(), text } });
}
