import { Link } from '@readium/shared';
import { describe, expect, it } from 'vitest';
import { SanitizingFetcher } from '../../src/ui/reader/epub/publication.ts';

/**
 * Which EPUB documents are cleaned before Readium's navigator shows them. The navigator parses any
 * reading-order item with the media type its package declares and shows it as an XHTML blob
 * document of Folio's origin, so a chapter declared `application/xml` (or `text/xml`) is a page
 * like any other: it must be cleaned like one.
 */
const hostile = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title><meta http-equiv="refresh" content="0;url=https://example.org/"/></head>
<body><h1 id="title">A harmless chapter</h1><form action="/actuator/shutdown" method="post"><button>Next page</button></form></body></html>`;

async function served(type: string): Promise<string> {
  const link = new Link({ href: `data:${type};charset=utf-8,${encodeURIComponent(hostile)}`, type });
  return (await new SanitizingFetcher().get(link).readAsString()) ?? '';
}

describe('EPUB documents shown by the navigator', () => {
  for (const type of ['application/xhtml+xml', 'text/html', 'application/xml', 'text/xml']) {
    it(`are cleaned when declared ${type}`, async () => {
      const text = await served(type);
      // Before: only (X)HTML types were cleaned; an XML-declared chapter kept its form and refresh.
      expect(text).toContain('A harmless chapter');
      expect(text).not.toContain('<form');
      expect(text).not.toContain('http-equiv');
    });
  }

  it('leave everything else as it is', async () => {
    expect(await served('text/css')).toContain('<form');
  });
});
