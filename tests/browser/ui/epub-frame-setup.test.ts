import { Link } from '@readium/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { FRAME_SHOWN_ATTRIBUTE, FRAME_STYLE_ID, prepareFrameDocument, revealFrames } from '../../../src/ui/reader/epub/frameSetup.ts';
import { SanitizingFetcher } from '../../../src/ui/reader/epub/publication.ts';
import { pollUntil } from '../../support/poll.ts';

/*
 * What a chapter's document carries before the navigator attaches it (frameSetup.ts): the reader's
 * own style and the frame's width on the root, so nothing the navigator or the reader does after
 * the first layout restyles a large chapter; and a large chapter is kept from rendering until its
 * frame is set up, then shown.
 */
const XHTML = 'application/xhtml+xml';
const chapter = (paragraphs: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p id="first">First words.</p>${'<p>It was a dark and stormy night; the rain fell in <em>torrents</em>.</p>'.repeat(paragraphs)}</body></html>`;

async function served(markup: string, frameWidth?: number): Promise<Document> {
  const fetcher = new SanitizingFetcher();
  fetcher.frameWidth = () => frameWidth;
  const link = new Link({ href: URL.createObjectURL(new Blob([markup], { type: XHTML })), type: XHTML });
  const text = (await fetcher.get(link).readAsString()) ?? '';
  return new DOMParser().parseFromString(text, XHTML);
}

const frames: HTMLElement[] = [];
afterEach(() => {
  for (const host of frames.splice(0)) host.remove();
});

describe('a chapter as the navigator receives it', () => {
  it('carries the reader\'s style and the frame\'s width on its root', async () => {
    const doc = await served(chapter(10), 777);
    expect(doc.documentElement.getAttribute('style')).toContain('--RS__viewportWidth: 777px');
    expect(doc.querySelectorAll(`#${FRAME_STYLE_ID}`)).toHaveLength(1);
    expect(doc.getElementById(FRAME_STYLE_ID)?.textContent).toContain('touch-action');
  });

  it('without a frame yet, carries no width', async () => {
    const doc = await served(chapter(10));
    expect(doc.documentElement.getAttribute('style') ?? '').not.toContain('--RS__viewportWidth');
  });

  it('a small chapter renders as it loads; a large one waits for its frame to be set up', async () => {
    const styles = (doc: Document) => [...doc.querySelectorAll('style')].map((style) => style.textContent ?? '');
    expect(styles(await served(chapter(10), 500)).some((text) => text.includes('content-visibility'))).toBe(false);
    expect(styles(await served(chapter(5000), 500))).toContain(`html:not([${FRAME_SHOWN_ATTRIBUTE}]) > body { content-visibility: hidden; }`);
  });
});

describe('a large chapter in its frame', () => {
  it('is not rendered before the frame has loaded, and is shown once it has', async () => {
    const doc = new DOMParser().parseFromString(chapter(5000), XHTML);
    prepareFrameDocument(doc, { deferRendering: true, viewportWidth: 400 });
    const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(doc)], { type: XHTML }));
    const host = document.createElement('div');
    host.style.cssText = 'position: fixed; inset-block-start: 0; inset-inline-start: 0; inline-size: 400px; block-size: 300px;';
    document.body.append(host);
    frames.push(host);
    const stop = revealFrames(host);
    const frame = document.createElement('iframe');
    frame.style.cssText = 'inline-size: 400px; block-size: 300px; border: 0;';
    // What the navigator's frame manager does: its own set-up runs in onload, assigned before the load.
    let hiddenAtSetUp: string | null = null;
    frame.onload = () => {
      const body = frame.contentDocument!.body;
      hiddenAtSetUp = frame.contentWindow!.getComputedStyle(body).contentVisibility;
    };
    host.append(frame);
    frame.src = url;
    await pollUntil('the chapter shown', async () => frame.contentDocument?.documentElement.hasAttribute(FRAME_SHOWN_ATTRIBUTE) === true);
    stop();
    expect(hiddenAtSetUp).toBe('hidden');
    const frameWindow = frame.contentWindow!;
    const body = frame.contentDocument!.body;
    expect(frameWindow.getComputedStyle(body).contentVisibility).toBe('visible');
    expect(frame.contentDocument!.getElementById('first')!.getBoundingClientRect().height).toBeGreaterThan(0);
    // The navigator's helper writes the width the root already has: the root's style stays as it was.
    const before = frame.contentDocument!.documentElement.getAttribute('style');
    frame.contentDocument!.documentElement.style.setProperty('--RS__viewportWidth', `${frameWindow.innerWidth}px`);
    expect(frame.contentDocument!.documentElement.getAttribute('style')).toBe(before);
  });

  it('is shown inside a container too (fixed-layout pages sit in spread elements in the host)', async () => {
    const doc = new DOMParser().parseFromString(chapter(50), XHTML);
    prepareFrameDocument(doc, { deferRendering: true });
    const host = document.createElement('div');
    document.body.append(host);
    frames.push(host);
    const stop = revealFrames(host);
    const spread = document.createElement('div');
    const frame = document.createElement('iframe');
    spread.append(frame);
    host.append(spread);
    frame.src = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(doc)], { type: XHTML }));
    await pollUntil('the page shown', async () => frame.contentDocument?.documentElement.hasAttribute(FRAME_SHOWN_ATTRIBUTE) === true);
    stop();
    expect(frame.contentWindow!.getComputedStyle(frame.contentDocument!.body).contentVisibility).toBe('visible');
  });
});
