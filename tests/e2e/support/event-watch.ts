import type { APIRequestContext } from '@playwright/test';

/**
 * The server's live events, read by the test itself over its own stream (with the cookies of
 * `request`): to know an event was sent while the page's stream is held, without guessing a time.
 */
export async function watchEvents(request: APIRequestContext, url: string) {
  const cookie = (await request.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const controller = new AbortController();
  const response = await fetch(`${url}/sse/v1/events`, { headers: { cookie, 'X-Requested-With': 'XMLHttpRequest' }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`The event stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    /** Resolves with the data of the first event named `name` (read from the stream's start). */
    async next(name: string, timeoutMs = 30_000): Promise<unknown> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = text.indexOf(`event:${name}\n`);
        if (at >= 0) {
          const end = text.indexOf('\n\n', at);
          if (end >= 0) {
            const block = text.slice(at, end);
            text = text.slice(end + 2);
            return JSON.parse(block.split('\n').find((line) => line.startsWith('data:'))!.slice(5));
          }
        }
        if (Date.now() > deadline) throw new Error(`No ${name} event within ${timeoutMs} ms`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`The event stream ended before a ${name} event`);
        text += value;
      }
    },
    close: () => controller.abort(),
  };
}
