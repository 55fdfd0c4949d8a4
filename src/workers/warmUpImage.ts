/**
 * A 16×16 JPEG (268 bytes), decoded by each decode worker as it starts. A fresh worker's first page
 * otherwise pays for everything a first decode sets up — compiling the decode path, the JPEG decoder
 * behind ImageDecoder, the first OffscreenCanvas and bitmap — on top of the page's own decode; decoding
 * this the way a page is decoded (to 7×7: a half-scale decode, then an exact resize) does it at start-up.
 */
const WARM_UP_JPEG =
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAQABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKABiz//2Q==';

export const WARM_UP_NATURAL = { width: 16, height: 16 };
export const WARM_UP_SIZE = { width: 7, height: 7 };

export function warmUpImage(): Blob {
  const bytes = Uint8Array.from(atob(WARM_UP_JPEG), (char) => char.charCodeAt(0));
  return new Blob([bytes], { type: 'image/jpeg' });
}
