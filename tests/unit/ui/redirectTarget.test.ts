import { describe, expect, it } from 'vitest';
import { safeRedirectTarget, withRedirect } from '../../../src/ui/routing/redirectTarget.ts';

describe('safeRedirectTarget', () => {
  it('keeps an in-app path with its query and its #hash', () => {
    expect(safeRedirectTarget('/series/1?page=2')).toBe('/series/1?page=2');
    expect(safeRedirectTarget('/book/B1/read#chapter-3')).toBe('/book/B1/read#chapter-3');
    expect(safeRedirectTarget('/book/B1/read?page=2&incognito=true#x=1')).toBe('/book/B1/read?page=2&incognito=true#x=1');
    expect(safeRedirectTarget('/series/S1#')).toBe('/series/S1');
  });

  it('survives the trip through the redirect query', () => {
    const target = '/series/S1?sort=title#books';
    const query = new URL(withRedirect('/login', target), 'http://localhost').searchParams.get('redirect');
    expect(safeRedirectTarget(query)).toBe('/series/S1?sort=title#books');
  });

  it.each([
    ['an absolute URL', 'https://evil.example/x'],
    ['a scheme', 'javascript:alert(1)'],
    ['a data URL', 'data:text/html,<script>alert(1)</script>'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash the parser reads as a slash', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a tab between the slashes (the parser drops it)', '/\t/evil.example'],
    ['a newline between the slashes', '/\n/evil.example'],
    ['a tab before a backslash', '/\t\\evil.example'],
    ['encoded slashes', '/%2F%2Fevil.example'],
    ['an encoded slash after a slash', '/%2Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['lower-case escapes', '/%5c%5cevil.example'],
    ['a doubly encoded redirect read once', '%2F%2Fevil.example'],
    ['a leading space', ' //evil.example'],
    ['a malformed escape', '/series/%E0%A4%A'],
    ['nothing', ''],
    ['no value', null],
  ])('refuses %s', (_name, raw) => {
    expect(safeRedirectTarget(raw)).toBe('/dashboard');
  });

  it('refuses the screens that would loop back to the login, also behind dot segments', () => {
    expect(safeRedirectTarget('/login?redirect=/x')).toBe('/dashboard');
    expect(safeRedirectTarget('/startup#x')).toBe('/dashboard');
    expect(safeRedirectTarget('/series/../login')).toBe('/dashboard');
    expect(safeRedirectTarget('/books/x', '/home')).toBe('/books/x');
    expect(safeRedirectTarget('//evil.example', '/home')).toBe('/home');
  });
});
